// Golden XML samples written by Linux Foundation's PropertyListSerialization:
// values that exercise Apple's XML layout (base64 lines at every indentation,
// real and date formatting, escaping, key order). For each sample NAME it
// writes foundation/NAME.xml (the layout under test) and foundation/NAME.bplist
// (the same value, exactly, for the test to read with our binary reader).
// Usage: foundation_xml_samples OUTDIR   (run by generate.sh)
import Foundation

let out = URL(fileURLWithPath: CommandLine.arguments[1])
let D = { (seconds: Double) in Date(timeIntervalSinceReferenceDate: seconds) }

func nested(_ levels: Int, _ leaf: Any) -> Any {
    var value = leaf
    for _ in 0..<levels { value = [value] }
    return value
}

var samples: [String: Any] = [:]

// base64 lines: CoreFoundation breaks data into 76 - 8 × indent characters per
// line (indent capped at 8) and indents each line like the element.
let blob = Data((0..<200).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) })
samples["data-indents"] = (0...11).map { nested($0, blob) }
samples["data-lengths"] = [0, 1, 2, 3, 4, 5, 56, 57, 58, 59, 60, 113, 114, 115].map { Data(blob.prefix($0)) }
samples["data-in-dict"] = ["a": ["b": ["c": ["d": Data(blob.prefix(100))]]]]

// Reals: %.17g with Apple's names for zero and the infinities.
samples["reals"] = [
    0.0, 0.1, 0.5, 1.0 / 3.0, 2.0 / 3.0, 100.0, 1e15, 1e16, 1e17, 1e21, 1e22, 1e-4, 1e-5, 1e-7,
    123456789.0, 9007199254740992.0, 9007199254740993.0, -1.5e-300, 5e-324, 2.2250738585072014e-308,
    1.7976931348623157e308, -2.5, 3.141592653589793, 2.718281828459045, 1.1, 299792458.0,
    Double.nan, Double.infinity, -Double.infinity,
] as [Double]

// Dates: %04d years (a minus sign counts as a digit), the whole second at or before.
samples["dates"] = [
    D(0), D(-0.5), D(0.999), D(-978307200), D(2147483647 - 978307200), D(-63113904000),
    D(-63145526400), D(-63145526401), D(-63176976000), D(252423993599), D(252423993600),
    D(3e12), D(-3e12), D(1234567890.75), D(-1234567890.25),
]

// Integers at every boundary.
samples["integers"] = [
    NSNumber(value: 0), NSNumber(value: -1), NSNumber(value: Int64.max), NSNumber(value: Int64.min),
    NSNumber(value: UInt64(Int64.max) + 1), NSNumber(value: UInt64.max), NSNumber(value: 255), NSNumber(value: -256),
]

// Text: only &, <, > are escaped; quotes, apostrophes and whitespace stay.
samples["strings"] = [
    "", " ", "plain", "a & b < c > d", "\"quoted\" and 'single'", "]]>", "<![CDATA[x]]>", "&amp;",
    "tab\there", "line\nfeed", "  leading and trailing  ", "café", "e\u{301}", "日本語", "😀👍🏽",
    "\u{7F}\u{85}\u{A0}", "\u{D7FF}\u{E000}\u{FFFD}", "\u{10FFFF}", "CF$UID", "$null",
]

// Keys in ascending UTF-16 order (an emoji's surrogates sort below U+FF5A).
samples["key-order"] = ["a": 1, "B": 2, "é": 3, "😀": 4, "ｚ": 5, "": 6, "aa": 7, "a.b": 8, "Z": 9, "z": 10]

samples["empty"] = ["array": [Any](), "dict": [String: Any](), "string": "", "data": Data(), "nested": [[Any](), [String: Any](), [[Any]()]]] as [String: Any]
samples["booleans"] = [true, false, ["t": true, "f": false]] as [Any]
samples["deep"] = nested(40, ["leaf": "bottom", "data": Data([1, 2, 3])])

try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
for (name, value) in samples {
    try PropertyListSerialization.data(fromPropertyList: value, format: .xml, options: 0)
        .write(to: out.appendingPathComponent("\(name).xml"))
    try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
        .write(to: out.appendingPathComponent("\(name).bplist"))
}
