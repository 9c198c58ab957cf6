// The C side of PropertyListXML's use of libxml2 (Specs/xml-plist.md, "libxml2").
//
// This header declares plain C types only: it includes no libxml2 header, so
// no Swift module that imports it (PropertyListXML, and through it every
// client) ever loads libxml2's headers, which include the system ICU headers
// when libxml2 is built with ICU and then clash with Foundation's own ICU
// module ('UErrorCode' has different definitions in different modules).
// Every libxml2 call is in LibXML2Bridge.c.
#ifndef ACTIVITYCODEC_LIBXML2_BRIDGE_H
#define ACTIVITYCODEC_LIBXML2_BRIDGE_H

#include <stddef.h>

/// The SAX events the plist grammar needs, each with the reader's own context
/// first. Text is UTF-8 (libxml2's xmlChar), never NUL-terminated where a
/// length is given.
typedef struct activitycodec_sax_events {
    /// An element starts: its qualified name as written (`prefix:local` when it
    /// has a prefix; libxml2 interns names, so one parser passes the same
    /// pointer for every occurrence of a name), and `attributes`, NULL or a
    /// NULL-terminated list of (qualified name, value) pairs in document order,
    /// namespace declarations (`xmlns`, `xmlns:p`) among them. Returns non-zero
    /// when the element holds text (a scalar or key), zero when it holds only
    /// elements: inside it, and after any element closes, text that is only
    /// whitespace (space, tab, line feed, carriage return) is not reported.
    int (*start_element)(void *context, const unsigned char *name, const unsigned char **attributes);
    void (*end_element)(void *context);
    /// Character data, including ignorable whitespace.
    void (*characters)(void *context, const unsigned char *text, int length);
    void (*cdata)(void *context, const unsigned char *text, int length);
    void (*comment)(void *context);
    void (*processing_instruction)(void *context, const unsigned char *target);
    /// An entity or character reference libxml2 did not replace.
    void (*reference)(void *context, const unsigned char *name);
    /// A document type declaration: its name, public and system identifiers.
    void (*document_type)(void *context, const unsigned char *name, const unsigned char *public_id,
                          const unsigned char *system_id);
    /// libxml2's own diagnosis of malformed XML (message, 1-based line and column).
    void (*diagnostic)(void *context, const char *message, int line, int column);
} activitycodec_sax_events;

/// A libxml2 SAX parser with the reader's options (no network, no entity
/// substitution, no DTD loading, no recovery; XML_PARSE_HUGE; the declared
/// encoding ignored), reading UTF-8 from memory the caller owns.
typedef struct activitycodec_xml_parser activitycodec_xml_parser;

/// A new parser over `length` bytes at `bytes` (which must stay valid until the
/// parser is freed) that reports to `events` with `context`; NULL if libxml2
/// could not allocate one. A document of up to 1 MiB is copied into one
/// buffer for libxml2 (with libxml2 2.9 and 2.10; Specs/xml-plist.md,
/// "libxml2", whole documents); a larger one, or any when `streamed` is
/// non-zero, is read in small pieces as libxml2 goes (it keeps a window of
/// the document, never a copy of all of it). With `prolog_length` > 0, the
/// first `prolog_length` bytes are Apple's prolog, which the caller has
/// checked: libxml2 starts at the root element, which stands at `root_line`
/// and `root_column`, as if it had read that prolog.
activitycodec_xml_parser *activitycodec_xml_parser_create(const activitycodec_sax_events *events, void *context,
                                                          const char *bytes, size_t length, size_t prolog_length,
                                                          int root_line, int root_column, int streamed);

/// The largest document libxml2 is handed in one buffer (1 MiB with libxml2
/// 2.9 and 2.10, whose parser can then skip its input checks; 0 otherwise).
size_t activitycodec_xml_whole_document_limit(void);

/// Parses the whole document, reporting events. Returns 0 when libxml2 found
/// it well formed (and nothing stopped the parser).
int activitycodec_xml_parser_run(activitycodec_xml_parser *parser);

/// During an end_element event: non-zero when the element was written as an
/// empty-element tag (`<name/>`), zero when it closed with `</name>`.
int activitycodec_xml_parser_closed_empty(const activitycodec_xml_parser *parser);

/// Stops the parser: no further events are reported.
void activitycodec_xml_parser_stop(activitycodec_xml_parser *parser);

/// The parser's current 1-based line and column.
void activitycodec_xml_parser_position(const activitycodec_xml_parser *parser, int *line, int *column);

/// Frees the parser and anything libxml2 built for it.
void activitycodec_xml_parser_free(activitycodec_xml_parser *parser);

/// C's "%.17g" (Apple's spelling of a real in XML), callable from Swift
/// without boxing the argument as a CVarArg.
int activitycodec_format_g17(char *buffer, size_t size, double value);

/// C's strtod in the C locale over `length` bytes at `text` (not
/// NUL-terminated): 1 when all of them were read, with the number in `value`
/// (infinite when out of range), 0 when not; -1 when it could not run (64
/// bytes or more, or no C locale could be made).
int activitycodec_parse_double(const char *text, size_t length, double *value);

#endif
