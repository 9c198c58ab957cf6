// Differential target (Specs/fuzzing.md, "Differential fuzzing"): a document our
// reader accepts is also read by Linux Foundation's PropertyListSerialization,
// in process; a disagreement on the value is a finding.
//
// Isolation: Foundation traps on cyclic and very deep documents, so it only ever
// sees what our reader has accepted (acyclic, at most 64 levels deep, within the
// tight limits below). Behaviour of Foundation's listed in Specs/known-deviations.md
// is not a finding: that is what `knownDeviation` filters.
import Foundation
import PropertyList
import PropertyListXML
import FuzzDriver

let limits = PropertyListLimits(maxInputBytes: 1 << 16, maxDepth: 64, maxObjects: 4096, maxCollectionCount: 1024,
                                maxStringBytes: 4096, maxDataBytes: 4096, maxExpandedBytes: 1 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let data = Data(bytes: start, count: count)
    let ours: PropertyListValue
    do {
        ours = BinaryPropertyListReader.hasMagic(data.prefix(8))
            ? try BinaryPropertyListReader(limits: limits).read(data)
            : try XMLPropertyListReader(limits: limits).read(data)
    } catch {
        return 0
    }
    let theirs: Any
    do {
        theirs = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    } catch {
        // Known deviation (Specs/known-deviations.md): Linux Foundation refuses a
        // zero-length UTF-16 string object (short or long count), which no Apple
        // writer produces.
        if KnownDeviation.hasEmptyUTF16String(data) { return 0 }
        fatalError("finding: Foundation refused a document we accept: \(error)")
    }
    if let difference = Comparison.difference(ours, theirs, at: "root") {
        fatalError("finding: values differ at \(difference)")
    }
    return 0
}

enum Comparison {
    /// The path of the first difference, or nil when Foundation read the same value.
    static func difference(_ ours: PropertyListValue, _ theirs: Any, at path: String) -> String? {
        switch ours {
        case .string(let string):
            guard let other = theirs as? String else { return "\(path): string vs \(type(of: theirs))" }
            return Array(string.unicodeScalars) == Array(other.unicodeScalars) ? nil : "\(path): string"
        case .bool(let flag):
            guard let number = theirs as? NSNumber, isBoolean(theirs) else { return "\(path): bool vs \(type(of: theirs))" }
            return number.boolValue == flag ? nil : "\(path): bool value"
        case .integer(let integer):
            guard let number = theirs as? NSNumber, !isBoolean(theirs) else { return "\(path): integer vs \(type(of: theirs))" }
            if let signed = integer.int64Value, signed < 0 {
                return number.int64Value == signed ? nil : "\(path): integer \(signed) vs \(number)"
            }
            return number.uint64Value == integer.uint64Value ? nil : "\(path): integer \(integer) vs \(number)"
        case .real(let real):
            guard let number = theirs as? NSNumber, !isBoolean(theirs) else { return "\(path): real vs \(type(of: theirs))" }
            let other = number.doubleValue
            return real.bitPattern == other.bitPattern || (real.isNaN && other.isNaN) ? nil : "\(path): real \(real) vs \(other)"
        case .date(let date):
            guard let other = theirs as? Date else { return "\(path): date vs \(type(of: theirs))" }
            return date.timeIntervalSinceReferenceDate == other.timeIntervalSinceReferenceDate ? nil : "\(path): date"
        case .data(let bytes):
            guard let other = theirs as? Data else { return "\(path): data vs \(type(of: theirs))" }
            return bytes == other ? nil : "\(path): data"
        case .array(let array):
            guard let other = theirs as? [Any], other.count == array.count else { return "\(path): array" }
            for (index, element) in array.enumerated() {
                if let difference = difference(element, other[index], at: "\(path)[\(index)]") { return difference }
            }
            return nil
        case .dictionary(let dictionary):
            guard let other = theirs as? [String: Any] else { return "\(path): dictionary vs \(type(of: theirs))" }
            guard other.count == dictionary.count else { return "\(path): \(dictionary.count) keys vs \(other.count)" }
            let byScalars = Dictionary(other.map { (Array($0.key.unicodeScalars), $0.value) }, uniquingKeysWith: { first, _ in first })
            for (key, value) in dictionary {
                guard let match = byScalars[Array(key.unicodeScalars)] else { return "\(path).\(key): missing" }
                if let difference = difference(value, match, at: "\(path).\(key)") { return difference }
            }
            return nil
        case .uid(let uid):
            return uidValue(theirs) == uid ? nil : "\(path): uid \(uid) vs \(type(of: theirs))"
        case .null:
            // The binary null object (0x00): CoreFoundation reads it as kCFNull.
            return theirs is NSNull ? nil : "\(path): null vs \(type(of: theirs))"
        }
    }

    static func isBoolean(_ value: Any) -> Bool {
        if type(of: value) == Bool.self { return true }
        guard let number = value as? NSNumber else { return false }
        // Booleans that do not bridge to Bool arrive as CFBoolean-backed NSNumbers of type "c".
        return String(cString: number.objCType) == "c" && (number.int64Value == 0 || number.int64Value == 1)
    }

    /// Linux Foundation has no public accessor for a UID's value; its XML form carries it.
    static func uidValue(_ value: Any) -> UInt32? {
        guard String(describing: type(of: value)).contains("UID"),
              let xml = try? PropertyListSerialization.data(fromPropertyList: [value], format: .xml, options: 0),
              let text = String(data: xml, encoding: .utf8),
              let start = text.range(of: "<integer>"), let end = text.range(of: "</integer>") else { return nil }
        return UInt32(text[start.upperBound..<end.lowerBound])
    }
}

runLibFuzzer(fuzzOneInput)

enum KnownDeviation {
    /// True when a binary plist (already accepted by our reader, so its trailer
    /// and offset table are sound) holds an object with marker 0x60: a UTF-16
    /// string of zero units.
    static func hasEmptyUTF16String(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        guard BinaryPropertyListReader.hasMagic(bytes.prefix(8)), bytes.count >= 40 else { return false }
        func bigEndian(_ at: Int, _ width: Int) -> Int { bytes[at..<(at + width)].reduce(0) { $0 << 8 | Int($1) } }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let count = bigEndian(trailer + 8, 8)
        let table = bigEndian(trailer + 24, 8)
        // A UTF-16 string of zero units: `0x60`, or `0x6F` with its count written
        // long as an integer object of value 0 (`0x1w` then 2^w zero bytes).
        func isEmptyUTF16(at offset: Int) -> Bool {
            guard offset < bytes.count else { return false }
            if bytes[offset] == 0x60 { return true }
            guard bytes[offset] == 0x6F, offset + 1 < bytes.count, bytes[offset + 1] & 0xF0 == 0x10 else { return false }
            let width = 1 << Int(bytes[offset + 1] & 0x0F)
            guard width <= 8, offset + 2 + width <= bytes.count else { return false }
            return bytes[(offset + 2)..<(offset + 2 + width)].allSatisfy { $0 == 0 }
        }
        return (0..<count).contains { isEmptyUTF16(at: bigEndian(table + $0 * offsetSize, offsetSize)) }
    }
}
