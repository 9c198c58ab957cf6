import ArgumentParser
import DocumentFormats

// The format names of the command line, as plutil spells them: each verb's
// set of names is an enum of its own (so that its help lists only those), and
// every name means the one `DocumentFormat` of the table below. Reading and
// writing go through DocumentFormats (`Document`), the one place that knows
// every format.

extension DocumentFormat {
    /// The format a command-line name means (`binary1`, `xml1`, `json`,
    /// `typed-json`, `openstep`, `strings`, `pbxproj`);
    /// nil for any other name (`swift`, `objc`, `raw` are outputs of their own).
    init?(commandLineName name: String) {
        switch name {
        case "binary1": self = .binary
        case "xml1": self = .xml
        case "json": self = .json
        case "typed-json": self = .typedJSON
        case "openstep": self = .openStep
        case "strings": self = .strings
        case "pbxproj": self = .xcodeProject
        default: return nil
        }
    }
}

/// The formats `convert` writes (plus typed JSON).
enum ConvertFormat: String, CaseIterable, ExpressibleByArgument {
    case binary1, xml1, json
    case typedJSON = "typed-json"
    case openstep, strings, pbxproj
    case swift, objc

    /// The document format; nil for the literal outputs (`LiteralSource`, in `DocumentFormats`).
    var output: DocumentFormat? { DocumentFormat(commandLineName: rawValue) }

    /// The extension of an output written into a directory (`convert -o DIR`,
    /// Specs/plistkit.md, "Many files").
    var fileExtension: String {
        switch self {
        case .binary1, .xml1, .openstep: return "plist"
        case .json, .typedJSON: return "json"
        case .strings: return "strings"
        case .pbxproj: return "pbxproj"
        case .swift: return "swift"
        case .objc: return "m"
        }
    }
}

/// The formats `archive` writes.
enum ArchiveFormat: String, CaseIterable, ExpressibleByArgument {
    case binary1, xml1

    var output: DocumentFormat { DocumentFormat(commandLineName: rawValue)! }
}
