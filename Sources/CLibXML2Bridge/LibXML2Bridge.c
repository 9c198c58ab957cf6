// Every libxml2 call of ActivityCodec (Specs/xml-plist.md, "libxml2"): a SAX2
// push parser whose events are forwarded to the reader's callbacks. Only this
// file includes libxml2's headers.
#include "CLibXML2Bridge.h"

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct activitycodec_xml_parser {
    xmlParserCtxtPtr context;
    activitycodec_sax_events events;
    void *user;
};

/// Parser options, as one named constant: no network, no entity substitution
/// (no XML_PARSE_NOENT), no DTD loading, defaulting or validation (no
/// XML_PARSE_DTDLOAD, DTDATTR, DTDVALID), no recovery (no XML_PARSE_RECOVER),
/// no XInclude, CDATA kept as CDATA (no XML_PARSE_NOCDATA), blanks kept (no
/// XML_PARSE_NOBLANKS). XML_PARSE_HUGE lifts libxml2's nesting limit of 256 so
/// that the reader's own limits decide; it also lifts libxml2's text-size
/// limits, which the reader enforces itself. No entity can be declared (the
/// reader refuses every declaration before libxml2 sees the document).
static const int activitycodec_parser_options = XML_PARSE_NONET | XML_PARSE_HUGE;

static pthread_once_t activitycodec_initialized = PTHREAD_ONCE_INIT;

static void activitycodec_initialize(void) { xmlInitParser(); }

// The callbacks receive the parser context (its userData is itself, so that
// libxml2's own SAX2 helpers that stay installed work) and find the bridge's
// parser in its _private field.
static inline activitycodec_xml_parser *bridge(void *context) {
    return (activitycodec_xml_parser *)((xmlParserCtxtPtr)context)->_private;
}

static void on_start_element(void *context, const xmlChar *local_name, const xmlChar *prefix, const xmlChar *uri,
                             int namespace_count, const xmlChar **namespaces, int attribute_count, int defaulted,
                             const xmlChar **attributes) {
    (void)uri;
    (void)defaulted;
    activitycodec_xml_parser *parser = bridge(context);
    parser->events.start_element(parser->user, local_name, prefix, namespace_count, namespaces, attribute_count,
                                 attributes);
}

static void on_end_element(void *context, const xmlChar *local_name, const xmlChar *prefix, const xmlChar *uri) {
    (void)local_name;
    (void)prefix;
    (void)uri;
    activitycodec_xml_parser *parser = bridge(context);
    parser->events.end_element(parser->user);
}

static void on_characters(void *context, const xmlChar *text, int length) {
    activitycodec_xml_parser *parser = bridge(context);
    parser->events.characters(parser->user, text, length);
}

static void on_cdata(void *context, const xmlChar *text, int length) {
    activitycodec_xml_parser *parser = bridge(context);
    parser->events.cdata(parser->user, text, length);
}

static void on_comment(void *context, const xmlChar *text) {
    (void)text;
    activitycodec_xml_parser *parser = bridge(context);
    parser->events.comment(parser->user);
}

static void on_processing_instruction(void *context, const xmlChar *target, const xmlChar *data) {
    (void)data;
    activitycodec_xml_parser *parser = bridge(context);
    parser->events.processing_instruction(parser->user, target);
}

static void on_reference(void *context, const xmlChar *name) {
    activitycodec_xml_parser *parser = bridge(context);
    parser->events.reference(parser->user, name);
}

static void on_internal_subset(void *context, const xmlChar *name, const xmlChar *public_id,
                               const xmlChar *system_id) {
    activitycodec_xml_parser *parser = bridge(context);
    parser->events.document_type(parser->user, name, public_id, system_id);
}

static void on_structured_error(void *context, xmlErrorPtr error) {
    if (context == NULL || error == NULL) return;
    activitycodec_xml_parser *parser = bridge(context);
    parser->events.diagnostic(parser->user, error->message != NULL ? error->message : "XML error", error->line,
                              error->int2);
}

activitycodec_xml_parser *activitycodec_xml_parser_create(const activitycodec_sax_events *events, void *user) {
    pthread_once(&activitycodec_initialized, activitycodec_initialize);
    activitycodec_xml_parser *parser = calloc(1, sizeof *parser);
    if (parser == NULL) return NULL;
    // The push parser, as libxml2's own streaming reader uses it: it reads
    // exactly the bytes given (a NUL byte is a character, not an end).
    parser->context = xmlCreatePushParserCtxt(NULL, NULL, NULL, 0, NULL);
    if (parser->context == NULL) {
        free(parser);
        return NULL;
    }
    parser->events = *events;
    parser->user = user;
    parser->context->_private = parser;
    // Only what the plist grammar needs; the tree-building defaults are removed.
    xmlSAXHandlerPtr sax = parser->context->sax;
    sax->startDocument = NULL;
    sax->endDocument = NULL;
    sax->setDocumentLocator = NULL;
    sax->externalSubset = NULL;
    sax->startElement = NULL;
    sax->endElement = NULL;
    sax->warning = NULL;
    sax->error = NULL;
    sax->fatalError = NULL;
    sax->internalSubset = on_internal_subset;
    sax->startElementNs = on_start_element;
    sax->endElementNs = on_end_element;
    sax->characters = on_characters;
    sax->ignorableWhitespace = on_characters;
    sax->cdataBlock = on_cdata;
    sax->comment = on_comment;
    sax->processingInstruction = on_processing_instruction;
    sax->reference = on_reference;
    sax->serror = on_structured_error;
    xmlCtxtUseOptions(parser->context, activitycodec_parser_options);
    // The bytes are UTF-8 whatever the declaration says (the reader checked it).
    xmlCharEncodingHandlerPtr utf8 = xmlFindCharEncodingHandler("UTF-8");
    if (utf8 != NULL) xmlSwitchToEncoding(parser->context, utf8);
    return parser;
}

int activitycodec_xml_parser_push(activitycodec_xml_parser *parser, const char *bytes, int length, int terminate) {
    return xmlParseChunk(parser->context, bytes, length, terminate);
}

void activitycodec_xml_parser_stop(activitycodec_xml_parser *parser) { xmlStopParser(parser->context); }

void activitycodec_xml_parser_position(const activitycodec_xml_parser *parser, int *line, int *column) {
    xmlParserInputPtr input = parser->context->input;
    *line = input != NULL && input->line > 0 ? input->line : 1;
    *column = input != NULL && input->col > 0 ? input->col : 1;
}

void activitycodec_xml_parser_free(activitycodec_xml_parser *parser) {
    // No startDocument handler, so no document is built; free one defensively.
    if (parser->context->myDoc != NULL) {
        xmlFreeDoc(parser->context->myDoc);
        parser->context->myDoc = NULL;
    }
    xmlFreeParserCtxt(parser->context);
    free(parser);
}

const char *activitycodec_libxml2_version(void) {
    pthread_once(&activitycodec_initialized, activitycodec_initialize);
    return xmlParserVersion;
}

int activitycodec_format_g17(char *buffer, size_t size, double value) {
    return snprintf(buffer, size, "%.17g", value);
}
