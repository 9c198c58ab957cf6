import ArgumentParser
import DocumentFormats

// The format names of the command line, as plutil spells them; reading and
// writing go through DocumentFormats (`Document`), the one place that knows
// every format.

/// The formats `convert` writes (plus typed JSON).
enum ConvertFormat: String, CaseIterable, ExpressibleByArgument {
    case binary1, xml1, json
    case typedJSON = "typed-json"

    var output: Document.OutputFormat {
        switch self {
        case .binary1: return .binary
        case .xml1: return .xml
        case .json: return .json
        case .typedJSON: return .typedJSON
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
