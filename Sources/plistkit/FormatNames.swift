import ArgumentParser
import DocumentFormats

// The format names of the command line, as plutil spells them; reading and
// writing go through DocumentFormats (`Document`), the one place that knows
// every format.

/// The formats `convert` writes (plus typed JSON).
enum ConvertFormat: String, CaseIterable, ExpressibleByArgument {
    case binary1, xml1, json
    case typedJSON = "typed-json"
    case openstep, strings, pbxproj
    case swift, objc

    /// The document format; nil for the literal outputs (``LiteralOutput``).
    var output: Document.OutputFormat? {
        switch self {
        case .binary1: return .binary
        case .xml1: return .xml
        case .json: return .json
        case .typedJSON: return .typedJSON
        case .openstep: return .openStep
        case .strings: return .strings
        case .pbxproj: return .xcodeProject
        case .swift, .objc: return nil
        }
    }
}

/// The formats `archive` writes.
enum ArchiveFormat: String, CaseIterable, ExpressibleByArgument {
    case binary1, xml1

    var output: Document.OutputFormat {
        switch self {
        case .binary1: return .binary
        case .xml1: return .xml
        }
    }
}
