import ArgumentParser
import FoundationEssentials
import KeyedArchive
import PropertyList
import PropertyListXML

/// Decoding and encoding of whole documents for the verbs, in one place.
enum Documents {
    /// The formats `convert` writes, named as plutil names them (plus typed JSON).
    enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
        case binary1, xml1, json
        case typedJSON = "typed-json"
    }

    /// The formats `archive` writes.
    enum ArchiveFormat: String, CaseIterable, ExpressibleByArgument {
        case binary1, xml1
    }

    /// Decodes bytes in whichever property-list format they are in.
    static func decode(_ bytes: [UInt8], limits: PropertyListLimits = .default) throws(PropertyListError) -> PropertyListValue {
        switch PropertyListFormat.detect(bytes) {
        case .binary:
            return try BinaryPropertyListReader(limits: limits).read(bytes)
        case .xml:
            return try XMLPropertyListReader(limits: limits).read(bytes)
        case nil:
            throw PropertyListError(.unknownFormat, "not a property list (neither binary nor XML)", at: .byteOffset(0))
        }
    }

    /// Encodes a value in an output format.
    static func encode(_ value: PropertyListValue, as format: OutputFormat) throws(PropertyListError) -> [UInt8] {
        switch format {
        case .binary1: return try BinaryPropertyListWriter().writeBytes(value)
        case .xml1: return try XMLPropertyListWriter().writeBytes(value)
        case .json: return Array(try PlainJSONWriter().write(value))
        case .typedJSON: return Array(TypedJSONWriter(pretty: true).write(value)) + [0x0A]
        }
    }

    /// Encodes a property list (an archive) in an archive format.
    static func encode(_ value: PropertyListValue, as format: ArchiveFormat) throws(PropertyListError) -> [UInt8] {
        switch format {
        case .binary1: return try BinaryPropertyListWriter().writeBytes(value)
        case .xml1: return try XMLPropertyListWriter().writeBytes(value)
        }
    }
}
