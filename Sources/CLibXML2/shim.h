// The libxml2 headers ActivityCodec uses; only PropertyListXML imports this module.
#include <libxml/xmlversion.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlwriter.h>
#include <libxml/xmlerror.h>
