// Every libxml2 call of ActivityCodec (Specs/xml-plist.md, "libxml2"): a SAX
// parser pulling the document from memory, whose events are forwarded to the
// reader's callbacks. Only this file includes libxml2's headers.
// strtod_l and newlocale (POSIX 2008 locales; glibc declares strtod_l for _GNU_SOURCE).
#define _GNU_SOURCE
#include "CLibXML2Bridge.h"

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
#include <locale.h>
#ifdef __APPLE__
#include <xlocale.h>
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct activitycodec_xml_parser {
    xmlParserCtxtPtr context;
    activitycodec_sax_events events;
    void *user;
    /// The document not yet handed to libxml2.
    const char *next;
    size_t remaining;
    /// Non-zero while an element that holds text is open (the reader's answer
    /// to its start); otherwise text that is only whitespace is not forwarded
    /// (see on_characters).
    int text_wanted;
    /// Non-zero once libxml2 has parsed the whole document, well-formed, and
    /// no callback stopped it (see activitycodec_xml_parser_free).
    int parsed_whole;
    /// Non-zero when libxml2 holds the whole document in one buffer from the
    /// start (see push_input).
    int whole_document;
};

/// Parser options, as one named constant: no network, no entity substitution
/// (no XML_PARSE_NOENT), no DTD loading, defaulting or validation (no
/// XML_PARSE_DTDLOAD, DTDATTR, DTDVALID), no recovery (no XML_PARSE_RECOVER),
/// no XInclude, CDATA kept as CDATA (no XML_PARSE_NOCDATA), blanks kept (no
/// XML_PARSE_NOBLANKS). XML_PARSE_HUGE lifts libxml2's nesting limit of 256 so
/// that the reader's own limits decide; it also lifts libxml2's text-size
/// limits, which the reader enforces itself. No entity can be declared (the
/// reader refuses every declaration before libxml2 sees the document).
/// XML_PARSE_IGNORE_ENC: the bytes are UTF-8 whatever the declaration says
/// (the reader checked the declaration against the bytes, or transcoded them).
static const int activitycodec_parser_options = XML_PARSE_NONET | XML_PARSE_HUGE | XML_PARSE_IGNORE_ENC;

static pthread_once_t activitycodec_initialized = PTHREAD_ONCE_INIT;

// Each thread keeps one parser context between documents (measured: creating
// and freeing one was 7,000 instructions of a 3.4 KB userInfo document's
// decode, and its multi-kilobyte allocations made malloc consolidate the
// previous document's freed memory every time). A context is kept only after
// a document that libxml2 parsed whole and every callback accepted, so the
// names libxml2 interned in its dictionary are the grammar's few (elements,
// the version attribute, the document type's name): it never grows with
// input. The context is reset before it is kept (xmlCtxtReset: its input,
// state, errors and document go; its handlers, options and dictionary stay)
// and freed when its thread ends.
static int read_document(void *context, char *buffer, int length);
static int close_document(void *context);
static int push_input(xmlParserCtxtPtr context, activitycodec_xml_parser *parser);

static pthread_key_t activitycodec_spare_context;
static int activitycodec_spare_context_made;
/// The most names a kept context's dictionary may hold (the grammar's accept
/// about fifteen): a second guard, so that a bound holds by construction.
static const size_t activitycodec_spare_dictionary_limit = 64;

static void free_spare_context(void *context) { xmlFreeParserCtxt(context); }

static void activitycodec_initialize(void) {
    xmlInitParser();
    activitycodec_spare_context_made = pthread_key_create(&activitycodec_spare_context, free_spare_context) == 0;
}

// The thread's kept context, taken, with the document's input pushed; NULL
// when there is none (or it cannot take the input, when it is freed).
static xmlParserCtxtPtr take_spare_context(activitycodec_xml_parser *parser) {
    if (!activitycodec_spare_context_made) return NULL;
    xmlParserCtxtPtr context = pthread_getspecific(activitycodec_spare_context);
    if (context == NULL) return NULL;
    pthread_setspecific(activitycodec_spare_context, NULL);
    if (push_input(context, parser) != 0) {
        xmlFreeParserCtxt(context);
        return NULL;
    }
    return context;
}

// The three callbacks of every element start on a 64-byte boundary of their
// own, wherever the code before them ends (measured: moving them and the code
// after them by 48 bytes changed settings.xml's decode time by 5%, libxml2's
// own share included, with the same instructions). They sit in a .text.hot
// section, which the linker places ahead of all other code, so that a change
// anywhere in the Swift modules no longer moves them (measured: a change to
// the binary reader alone moved them by 256 bytes, and numbers.xml then
// decoded 8% slower at the same instructions; placed here, 0.995 of before).
#define HOT_CALLBACK __attribute__((aligned(64), section(".text.hot.activitycodec")))

// The callbacks receive the parser context (its userData is itself, so that
// libxml2's own SAX2 helpers that stay installed work) and find the bridge's
// parser in its _private field.
static inline activitycodec_xml_parser *bridge(void *context) {
    return (activitycodec_xml_parser *)((xmlParserCtxtPtr)context)->_private;
}

static HOT_CALLBACK void on_start_element(void *context, const xmlChar *name, const xmlChar **attributes) {
    activitycodec_xml_parser *parser = bridge(context);
    parser->text_wanted = parser->events.start_element(parser->user, name, attributes);
}

static HOT_CALLBACK void on_end_element(void *context, const xmlChar *name) {
    (void)name;
    activitycodec_xml_parser *parser = bridge(context);
    // Scalars do not nest: whatever closes, the element now open holds elements.
    parser->text_wanted = 0;
    parser->events.end_element(parser->user);
}

static HOT_CALLBACK void on_characters(void *context, const xmlChar *text, int length) {
    activitycodec_xml_parser *parser = bridge(context);
    if (!parser->text_wanted) {
        // Between elements, whitespace is layout, which the grammar accepts and
        // drops: it is dropped here, without a call into the reader (measured:
        // a tenth of the reader's events on indented documents). Anything else
        // is forwarded, for the grammar to refuse.
        int i = 0;
        while (i < length && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) i++;
        if (i == length) return;
    }
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

// Every error and warning: libxml2 has stored it, with its line and column,
// in the context's lastError before calling (the formatted message is the same
// text, so the format arguments are not read).
static void on_error(void *context, const char *message, ...) {
    (void)message;
    if (context == NULL) return;
    xmlParserCtxtPtr ctxt = context;
    activitycodec_xml_parser *parser = bridge(context);
    const xmlError *error = &ctxt->lastError;
    parser->events.diagnostic(parser->user, error->message != NULL ? error->message : "XML error", error->line,
                              error->int2);
}

// With the document's last bytes handed over, libxml2 is told there is no
// more to read: its input buffer then has no read callback, which libxml2
// treats as a buffer that holds everything (as for a document in memory).
// Otherwise it would call the reader again at every look-ahead within its last
// 250 bytes (INPUT_CHUNK), each call a trip through its buffer code: measured,
// 12% of libxml2's parse of a 3.4 KB userInfo document.
static void stop_reading(activitycodec_xml_parser *parser) {
    xmlParserInputPtr input = parser->context != NULL ? parser->context->input : NULL;
    if (input != NULL && input->buf != NULL && input->buf->context == parser) input->buf->readcallback = NULL;
}

// libxml2 pulls the document through this reader, a few KiB at a time.
static int read_document(void *context, char *buffer, int length) {
    activitycodec_xml_parser *parser = context;
    size_t count = length < 0 ? 0 : (size_t)length;
    if (count > parser->remaining) count = parser->remaining;
    memcpy(buffer, parser->next, count);
    parser->next += count;
    parser->remaining -= count;
    if (parser->remaining == 0 && count > 0) stop_reading(parser);
    return (int)count;
}

static int close_document(void *context) {
    (void)context;
    return 0;
}

// Whole documents (Specs/xml-plist.md, "libxml2"): in libxml2 2.9 and 2.10
// the parser's GROW and SHRINK steps, taken before most tokens, read more
// input or drop what is parsed whenever fewer than 250 bytes (INPUT_CHUNK)
// are buffered ahead, unless the context is marked progressive. A document
// up to ACTIVITYCODEC_WHOLE_DOCUMENT_BYTES is handed over in one buffer
// (xmlParserInputBufferCreateMem: a copy, NUL-terminated, which the parser
// never needs to grow) and the context is marked progressive, so that those
// steps are skipped: in these versions that mark is read by GROW and SHRINK
// and by the push parser's own functions only, which xmlParseDocument never
// calls (measured: 10% of libxml2's instructions on a 4.5 KB userInfo
// document, 6–8% on 1 MB ones). Whatever libxml2 reads at a NUL byte (the end
// of input) it reads the same way. Newer versions test another mark, so there
// every document is read through the reader, as a larger one is here.
#if LIBXML_VERSION >= 20900 && LIBXML_VERSION < 21100
static const size_t activitycodec_whole_document_bytes = 1 << 20;
#else
static const size_t activitycodec_whole_document_bytes = 0;
#endif

size_t activitycodec_xml_whole_document_limit(void) { return activitycodec_whole_document_bytes; }

// Pushes the document's input on a context that has none (as
// xmlCreateIOParserCtxt does after creating one): the whole document in one
// buffer, or the reader that hands it over a window at a time. Returns 0, or
// -1 (nothing pushed) when libxml2 could not allocate it.
static int push_input(xmlParserCtxtPtr context, activitycodec_xml_parser *parser) {
    xmlParserInputBufferPtr buffer =
        parser->whole_document
            ? xmlParserInputBufferCreateMem(parser->next, (int)parser->remaining, XML_CHAR_ENCODING_UTF8)
            : xmlParserInputBufferCreateIO(read_document, close_document, parser, XML_CHAR_ENCODING_UTF8);
    xmlParserInputPtr input = buffer != NULL ? xmlNewIOInputStream(context, buffer, XML_CHAR_ENCODING_UTF8) : NULL;
    // inputPush can fail only when its table is full, and frees the input
    // then in libxml2 2.9 but not in 2.12: a new or reset context's table is
    // empty, and room is checked first, so that it never fails here.
    if (input == NULL || context->inputNr != 0 || context->inputMax < 1) {
        if (input != NULL) xmlFreeInputStream(input);
        else if (buffer != NULL) xmlFreeParserInputBuffer(buffer);
        return -1;
    }
    inputPush(context, input);
    // A kept context keeps the mark of its last document (xmlCtxtReset leaves it).
    context->progressive = parser->whole_document;
    return 0;
}

// Apple's prolog, checked by the reader, is not handed to libxml2 (see
// activitycodec_xml_parser_create): its input starts at the root element,
// at the line and column where that stands, and the context records the
// external subset the document type names, as parsing it would have (an
// undeclared entity is then a warning and a reference event, not a fatal
// error). Nothing else libxml2 keeps from a prolog affects the body: the
// declaration's encoding is ignored (XML_PARSE_IGNORE_ENC), no DTD is
// loaded, and the document type has no internal subset.
static void start_after_prolog(xmlParserCtxtPtr context, int line, int column) {
    if (context->input == NULL) return;
    context->input->line = line;
    context->input->col = column;
    context->hasExternalSubset = 1;
}

activitycodec_xml_parser *activitycodec_xml_parser_create(const activitycodec_sax_events *events, void *user,
                                                          const char *bytes, size_t length, size_t prolog_length,
                                                          int root_line, int root_column, int streamed) {
    pthread_once(&activitycodec_initialized, activitycodec_initialize);
    if (prolog_length > length) return NULL;
    activitycodec_xml_parser *parser = calloc(1, sizeof *parser);
    if (parser == NULL) return NULL;
    parser->events = *events;
    parser->user = user;
    parser->next = bytes + prolog_length;
    parser->remaining = length - prolog_length;
    parser->whole_document = !streamed && parser->remaining <= activitycodec_whole_document_bytes;
    // The pull parser (xmlParseDocument) over an I/O reader, or over one buffer
    // holding a small document (see push_input): measured 35% fewer
    // instructions in libxml2 than the push parser fed the same bytes (which
    // looks ahead for each tag's end before parsing it). It stops at a NUL
    // byte as at the end of input, so the reader refuses NUL bytes first.
    parser->context = take_spare_context(parser);
    if (parser->context != NULL) {
        // Handlers and options are the context's own, set when it was made.
        parser->context->_private = parser;
        if (prolog_length > 0) start_after_prolog(parser->context, root_line, root_column);
        return parser;
    }
    parser->context = xmlNewParserCtxt();
    if (parser->context == NULL || push_input(parser->context, parser) != 0) {
        if (parser->context != NULL) xmlFreeParserCtxt(parser->context);
        free(parser);
        return NULL;
    }
    parser->context->_private = parser;
    // Only what the plist grammar needs; the tree-building defaults are removed.
    // SAX1 element events: the grammar wants names and attribute values only,
    // and libxml2's namespace processing (SAX2) costs 8% of its parse; a
    // prefixed name arrives as written (`a:b`) and is unknown to the grammar,
    // a namespace declaration as an attribute, which the grammar refuses.
    // A handler not marked as SAX2's (XML_SAX2_MAGIC) is what makes libxml2
    // 2.9 parse with SAX1 events; it then reports errors through the
    // handler's error and warning callbacks, not serror.
    xmlSAXHandlerPtr sax = parser->context->sax;
    sax->initialized = 1;
    sax->startDocument = NULL;
    sax->endDocument = NULL;
    sax->setDocumentLocator = NULL;
    sax->externalSubset = NULL;
    sax->startElementNs = NULL;
    sax->endElementNs = NULL;
    sax->warning = on_error;
    sax->error = on_error;
    sax->fatalError = on_error;
    sax->serror = NULL;
    sax->internalSubset = on_internal_subset;
    sax->startElement = on_start_element;
    sax->endElement = on_end_element;
    sax->characters = on_characters;
    sax->ignorableWhitespace = on_characters;
    sax->cdataBlock = on_cdata;
    sax->comment = on_comment;
    sax->processingInstruction = on_processing_instruction;
    sax->reference = on_reference;
    xmlCtxtUseOptions(parser->context, activitycodec_parser_options);
    if (prolog_length > 0) start_after_prolog(parser->context, root_line, root_column);
    return parser;
}

int activitycodec_xml_parser_run(activitycodec_xml_parser *parser) {
    xmlParseDocument(parser->context);
    parser->parsed_whole = parser->context->wellFormed && !parser->context->disableSAX;
    return parser->parsed_whole ? 0 : 1;
}

int activitycodec_xml_parser_closed_empty(const activitycodec_xml_parser *parser) {
    // At an end-element event the input stands just past the tag that closed
    // the element: "/>" for an empty-element tag, "</name>" otherwise.
    xmlParserInputPtr input = parser->context->input;
    if (input == NULL || input->cur == NULL || input->base == NULL || input->cur - input->base < 2) return 0;
    return input->cur[-2] == '/' && input->cur[-1] == '>';
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
    // Kept for the thread's next document only after a whole, accepted parse
    // (see take_spare_context).
    if (parser->parsed_whole && activitycodec_spare_context_made && parser->context->dict != NULL &&
        xmlDictSize(parser->context->dict) <= activitycodec_spare_dictionary_limit &&
        pthread_getspecific(activitycodec_spare_context) == NULL) {
        xmlCtxtReset(parser->context);
        parser->context->_private = NULL;
        if (pthread_setspecific(activitycodec_spare_context, parser->context) == 0) {
            free(parser);
            return;
        }
    }
    xmlFreeParserCtxt(parser->context);
    free(parser);
}

int activitycodec_format_g17(char *buffer, size_t size, double value) {
    return snprintf(buffer, size, "%.17g", value);
}

// The C locale, made once: strtod_l reads "." as the decimal point whatever
// locale the process has chosen.
static pthread_once_t activitycodec_c_locale_made = PTHREAD_ONCE_INIT;
static locale_t activitycodec_c_locale;

static void activitycodec_make_c_locale(void) { activitycodec_c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0); }

int activitycodec_parse_double(const char *text, size_t length, double *value) {
    char buffer[64];
    if (length == 0 || length >= sizeof buffer) return -1;
    pthread_once(&activitycodec_c_locale_made, activitycodec_make_c_locale);
    if (activitycodec_c_locale == (locale_t)0) return -1;
    memcpy(buffer, text, length);
    buffer[length] = 0;
    char *end = NULL;
    *value = strtod_l(buffer, &end, activitycodec_c_locale);
    return end == buffer + length;
}
