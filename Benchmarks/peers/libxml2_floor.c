/* The libxml2 floors of the benchmark protocol (Benchmarks/README.md).
 *   libxml2_floor decode xml FILE ITERS
 *   LIBXML2_FLOOR_SETUP=ours libxml2_floor decode xml FILE ITERS
 * libxml2's parse with every callback an empty function, so nothing is built:
 * the lower bound of any XML plist reader built on libxml2 that way, not a
 * codec. ActivityCodec's XML decode is compared with it as a share of its
 * throughput. out_bytes = 0. Exits 1 if libxml2 finds a document not well-formed.
 *
 * Two set-ups:
 * - default, peer "libxml2-floor" (issue 19's definition, and ActivityCodec's
 *   reader until issue 19): the SAX2 push parser, options NONET | HUGE, the
 *   encoding switched to UTF-8, the document pushed in 256 KiB chunks, a new
 *   parser per document;
 * - LIBXML2_FLOOR_SETUP=ours, peer "libxml2-floor-ours": exactly ActivityCodec's
 *   reader now (Sources/CLibXML2Bridge/LibXML2Bridge.c): the pull parser
 *   (xmlParseDocument) over one buffer holding a document of up to 1 MiB, the
 *   context marked progressive (the bridge's push_input, whole documents), a
 *   larger one read from memory through an I/O callback, SAX1 element events, error and warning callbacks,
 *   options NONET | HUGE | IGNORE_ENC, the context of a well-formed
 *   document reset and kept for the next (the bridge's spare context), and
 *   Apple's prolog left out (the bridge's start_after_prolog). */
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>
#include "bench_harness.h"

#define CHUNK_BYTES (256 << 10)

/* The callbacks: empty functions, called through libxml2's handler pointers as
 * ActivityCodec's are, so the calls cost the same and nothing else is done. */
static void on_internal_subset(void *ctx, const xmlChar *name, const xmlChar *public_id, const xmlChar *system_id) {
    (void)ctx; (void)name; (void)public_id; (void)system_id;
}
static void on_start_element(void *ctx, const xmlChar *local_name, const xmlChar *prefix, const xmlChar *uri,
                                   int namespace_count, const xmlChar **namespaces, int attribute_count, int defaulted,
                                   const xmlChar **attributes) {
    (void)ctx; (void)local_name; (void)prefix; (void)uri; (void)namespace_count; (void)namespaces;
    (void)attribute_count; (void)defaulted; (void)attributes;
}
static void on_end_element(void *ctx, const xmlChar *local_name, const xmlChar *prefix, const xmlChar *uri) {
    (void)ctx; (void)local_name; (void)prefix; (void)uri;
}
static void on_characters(void *ctx, const xmlChar *text, int length) {
    (void)ctx; (void)text; (void)length;
}
static void on_cdata(void *ctx, const xmlChar *text, int length) {
    (void)ctx; (void)text; (void)length;
}
static void on_comment(void *ctx, const xmlChar *text) {
    (void)ctx; (void)text;
}
static void on_processing_instruction(void *ctx, const xmlChar *target, const xmlChar *data) {
    (void)ctx; (void)target; (void)data;
}
static void on_reference(void *ctx, const xmlChar *name) {
    (void)ctx; (void)name;
}
static void on_structured_error(void *ctx, xmlErrorPtr error) {
    (void)ctx; (void)error;
}
static void on_start_element_sax1(void *ctx, const xmlChar *name, const xmlChar **attributes) {
    (void)ctx; (void)name; (void)attributes;
}
static void on_end_element_sax1(void *ctx, const xmlChar *name) {
    (void)ctx; (void)name;
}
static void on_error(void *ctx, const char *message, ...) {
    (void)ctx; (void)message;
}

/* The document still to be read by the pull parser. */
struct memory_reader {
    const char *next;
    size_t remaining;
    xmlParserCtxtPtr context;
};

static int read_document(void *context, char *buffer, int length) {
    struct memory_reader *reader = context;
    size_t count = length < 0 ? 0 : (size_t)length;
    if (count > reader->remaining) count = reader->remaining;
    memcpy(buffer, reader->next, count);
    reader->next += count;
    reader->remaining -= count;
    /* As the bridge's stop_reading: the last bytes handed over, libxml2's
     * buffer loses its read callback (no call per look-ahead near the end). */
    if (reader->remaining == 0 && count > 0 && reader->context != NULL && reader->context->input != NULL &&
        reader->context->input->buf != NULL && reader->context->input->buf->context == reader)
        reader->context->input->buf->readcallback = NULL;
    return (int)count;
}

static int close_document(void *context) {
    (void)context;
    return 0;
}

/* Frees `context`; when the document was not well-formed (`ok` zero), says why
 * on stderr. Returns 0 for a well-formed document, else 1. */
static int finish(xmlParserCtxtPtr context, int ok, uint32_t index, const char *file) {
    if (!ok) {
        const char *message = context->lastError.message;
        fprintf(stderr, "libxml2_floor: document %u of %s is not well-formed (line %d): %s%s", index, file,
                context->lastError.line, message ? message : "libxml2 error",
                message && strchr(message, '\n') ? "" : "\n");
    }
    if (context->myDoc != NULL) {
        xmlFreeDoc(context->myDoc);
        context->myDoc = NULL;
    }
    xmlFreeParserCtxt(context);
    return ok ? 0 : 1;
}

/* As the bridge's push_input (Specs/xml-plist.md, "libxml2", whole
 * documents): with libxml2 2.9 and 2.10, a document of up to 1 MiB in one
 * buffer and the context marked progressive (no GROW or SHRINK steps); a
 * larger one through the reader. Returns 0, or -1 with nothing pushed. */
#if LIBXML_VERSION >= 20900 && LIBXML_VERSION < 21100
static const size_t whole_document_bytes = 1 << 20;
#else
static const size_t whole_document_bytes = 0;
#endif

static int push_input(xmlParserCtxtPtr context, struct memory_reader *reader) {
    int whole = reader->remaining <= whole_document_bytes;
    xmlParserInputBufferPtr buffer =
        whole ? xmlParserInputBufferCreateMem(reader->next, (int)reader->remaining, XML_CHAR_ENCODING_UTF8)
              : xmlParserInputBufferCreateIO(read_document, close_document, reader, XML_CHAR_ENCODING_UTF8);
    xmlParserInputPtr input = buffer != NULL ? xmlNewIOInputStream(context, buffer, XML_CHAR_ENCODING_UTF8) : NULL;
    /* As the bridge: a new or reset context's input table is empty, so the push cannot fail. */
    if (input == NULL || context->inputNr != 0 || context->inputMax < 1) {
        if (input != NULL) xmlFreeInputStream(input);
        else if (buffer != NULL) xmlFreeParserInputBuffer(buffer);
        return -1;
    }
    inputPush(context, input);
    context->progressive = whole;
    return 0;
}

/* As the bridge's spare context: the context of the last well-formed
 * document, reset, kept for the next one (this program has one thread). */
static xmlParserCtxtPtr spare_context;

/* The kept context with `reader`'s document pushed as its input, or NULL
 * when none is kept. */
static xmlParserCtxtPtr take_spare_context(struct memory_reader *reader) {
    xmlParserCtxtPtr context = spare_context;
    spare_context = NULL;
    if (context == NULL) return NULL;
    if (push_input(context, reader) != 0) {
        xmlFreeParserCtxt(context);
        return NULL;
    }
    return context;
}

/* A new context for `reader`'s document, its handlers and options set. */
static xmlParserCtxtPtr new_context(struct memory_reader *reader) {
    xmlParserCtxtPtr context = xmlNewParserCtxt();
    if (context == NULL) return NULL;
    if (push_input(context, reader) != 0) {
        xmlFreeParserCtxt(context);
        return NULL;
    }
    xmlSAXHandlerPtr sax = context->sax;
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
    sax->startElement = on_start_element_sax1;
    sax->endElement = on_end_element_sax1;
    sax->characters = on_characters;
    sax->ignorableWhitespace = on_characters;
    sax->cdataBlock = on_cdata;
    sax->comment = on_comment;
    sax->processingInstruction = on_processing_instruction;
    sax->reference = on_reference;
    xmlCtxtUseOptions(context, XML_PARSE_NONET | XML_PARSE_HUGE | XML_PARSE_IGNORE_ENC);
    return context;
}

/* Apple's prolog as its writers write it (both public identifiers): the bridge
 * hands libxml2 a document that opens with one, the root "<plist" right after
 * it, from the root on (Specs/xml-plist.md, "libxml2", Apple's prolog). */
static const char *apple_prologs[] = {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n",
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple Computer//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n",
};

static size_t apple_prolog_length(const unsigned char *bytes, uint32_t length) {
    for (size_t i = 0; i < sizeof apple_prologs / sizeof apple_prologs[0]; i++) {
        size_t n = strlen(apple_prologs[i]);
        if (length >= n + 6 && memcmp(bytes, apple_prologs[i], n) == 0 && memcmp(bytes + n, "<plist", 6) == 0) return n;
    }
    return 0;
}

/* Parses one document as ActivityCodec's reader does now. */
static int parse_ours(const unsigned char *bytes, uint32_t length, uint32_t index, const char *file) {
    size_t prolog = apple_prolog_length(bytes, length);
    struct memory_reader reader = {(const char *)bytes + prolog, length - prolog, NULL};
    xmlParserCtxtPtr context = take_spare_context(&reader);
    if (context == NULL) context = new_context(&reader);
    if (context == NULL) {
        fprintf(stderr, "libxml2_floor: no parser context for document %u of %s\n", index, file);
        return 1;
    }
    if (prolog > 0 && context->input != NULL) {
        /* As the bridge's start_after_prolog. */
        context->input->line = 3;
        context->input->col = 1;
        context->hasExternalSubset = 1;
    }
    reader.context = context;
    xmlParseDocument(context);
    int ok = context->wellFormed && !context->disableSAX;
    if (ok) {
        /* Kept for the next document, as the bridge keeps it. */
        xmlCtxtReset(context);
        spare_context = context;
        return 0;
    }
    return finish(context, ok, index, file);
}

/* Parses one document as ActivityCodec's reader does; returns 0 if it is
 * well-formed, else prints why on stderr and returns 1. */
static int parse(const unsigned char *bytes, uint32_t length, uint32_t index, const char *file) {
    xmlParserCtxtPtr context = xmlCreatePushParserCtxt(NULL, NULL, NULL, 0, NULL);
    if (context == NULL) {
        fprintf(stderr, "libxml2_floor: no parser context for document %u of %s\n", index, file);
        return 1;
    }
    xmlSAXHandlerPtr sax = context->sax;
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
    xmlCtxtUseOptions(context, XML_PARSE_NONET | XML_PARSE_HUGE);
    xmlCharEncodingHandlerPtr utf8 = xmlFindCharEncodingHandler("UTF-8");
    if (utf8 != NULL) xmlSwitchToEncoding(context, utf8);
    const char *chars = (const char *)bytes;
    uint32_t offset = 0;
    int status = 0;
    do {
        uint32_t n = length - offset < CHUNK_BYTES ? length - offset : CHUNK_BYTES;
        int last = offset + n == length;
        status = xmlParseChunk(context, chars + offset, (int)n, last);
        offset += n;
        if (status != 0) break;
    } while (offset < length);
    return finish(context, status == 0 && context->wellFormed, index, file);
}

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: libxml2_floor decode xml FILE ITERS\n"); return 2; }
    const char *op = argv[1], *format = argv[2], *file = argv[3];
    int iterations = atoi(argv[4]);
    if (strcmp(op, "decode") != 0 || strcmp(format, "xml") != 0) {
        fprintf(stderr, "libxml2_floor: only \"decode xml\" (got %s %s)\n", op, format);
        return 2;
    }
    if (iterations < 1) { fprintf(stderr, "libxml2_floor: ITERS must be ≥ 1\n"); return 2; }
    struct bench_input input;
    if (bench_load(file, &input) != 0) return 1;
    uint32_t count = input.count;

    const char *setup = getenv("LIBXML2_FLOOR_SETUP");
    int ours = setup != NULL && strcmp(setup, "ours") == 0;
    xmlInitParser();  /* as ActivityCodec's bridge does once, before its first parser */
    double *times = malloc(iterations * sizeof *times);
    for (int round = -1; round < iterations; round++) {  /* round -1: warm-up */
        double start = bench_now();
        for (uint32_t i = 0; i < count; i++) {
            if ((ours ? parse_ours : parse)(input.docs[i], input.lengths[i], i, file) != 0) return 1;
        }
        double elapsed = bench_now() - start;
        if (round >= 0) times[round] = elapsed;
    }
    double median = bench_median(times, iterations);
    const char *name = bench_name(file);
    printf("{\"peer\":\"%s\",\"op\":\"%s\",\"format\":\"%s\",\"file\":\"%s\",\"iters\":%d,\"messages\":%u,\"bytes\":%ld,"
           "\"median_s\":%.9g,\"min_s\":%.9g,\"max_s\":%.9g,\"out_bytes\":0}\n",
           ours ? "libxml2-floor-ours" : "libxml2-floor", op, format, name, iterations, count, input.size, median, times[0],
           times[iterations - 1]);
    return 0;
}
