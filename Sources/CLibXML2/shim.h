// The libxml2 headers ActivityCodec uses; only PropertyListXML imports this module.
#include <libxml/xmlversion.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlwriter.h>
#include <libxml/xmlerror.h>

#include <stdio.h>
/// C's "%.17g" (Apple's spelling of a real in XML), callable from Swift without
/// boxing the argument as a CVarArg: the XML writer's one use of stdio.
static inline int activitycodec_format_g17(char *buffer, size_t size, double value) {
    return snprintf(buffer, size, "%.17g", value);
}
