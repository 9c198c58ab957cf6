// The libxml2 headers ActivityCodec uses; only the C bridge (CLibXML2Bridge) includes them.
#include <libxml/xmlversion.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlwriter.h>
#include <libxml/xmlerror.h>
