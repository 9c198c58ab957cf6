// The comparison of our value with libplist's, and libplist's known deviations
// (Specs/known-deviations.md, "libplist"), each by a named rule.
import FoundationEssentials
import PropertyList
import PropertyListXML

/// Our value against libplist's tree: the path of the first difference, or nil.
struct Comparison {
    /// XML documents: libplist keeps a one-key `CF$UID` dictionary as a
    /// dictionary, and reads dates through `strptime`.
    let xml: Bool

    func difference(_ ours: PropertyListValue, _ theirs: PeerValue, at path: String) -> String? {
        switch (ours, theirs) {
        case (.string(let string), .string(let bytes)):
            let utf8 = Array(string.utf8)
            if utf8 == bytes { return nil }
            return KnownDeviation.isCutAtNUL(utf8, bytes) && explained("isCutAtNUL") ? nil : "\(path): string \(utf8) vs \(bytes)"
        case (.bool(let flag), .bool(let other)):
            return flag == other ? nil : "\(path): bool"
        case (.integer(let integer), .integer(let bits)):
            // libplist keeps 64 bits: a negative integer in two's complement, an
            // integer above Int64.max as itself (the same bits as a negative one).
            if integer.bitPattern == bits { return nil }
            if xml && KnownDeviation.isOctalReading(integer, bits) && explained("isOctalReading") { return nil }
            return "\(path): integer \(integer) vs bits \(bits)"
        case (.real(let real), .real(let other)):
            return real.bitPattern == other.bitPattern || (real.isNaN && other.isNaN) ? nil : "\(path): real \(real) vs \(other)"
        case (.date(let date), .date(let other)):
            let seconds = date.timeIntervalSinceReferenceDate
            if seconds.bitPattern == other.bitPattern { return nil }
            if xml && seconds == other { return nil }  // XML has no −0.0 date
            if xml && KnownDeviation.isDateOutsideStrptimeYears(seconds) && explained("isDateOutsideStrptimeYears") { return nil }
            return "\(path): date \(seconds) vs \(other)"
        case (.data(let data), .data(let bytes)):
            return Array(data) == bytes ? nil : "\(path): data (\(data.count) vs \(bytes.count) bytes)"
        case (.array(let array), .array(let elements)):
            guard array.count == elements.count else { return "\(path): \(array.count) elements vs \(elements.count)" }
            for (index, element) in array.enumerated() {
                if let difference = difference(element, elements[index], at: "\(path)[\(index)]") { return difference }
            }
            return nil
        case (.dictionary(let dictionary), .dictionary(let entries)):
            // Both keep the document's order (libplist's dictionary is a list of
            // key and value nodes; our dictionary keeps insertion order).
            guard dictionary.count == entries.count else { return "\(path): \(dictionary.count) keys vs \(entries.count)" }
            for (index, entry) in dictionary.enumerated() {
                // Compared up to the first NUL only (PeerKey): libplist's keys
                // are C strings to every reader of them (isCutAtNUL).
                let key = Array(entry.key.utf8)
                guard entries[index].key.matches(key) else { return "\(path): key \(index) \(key) is not libplist's" }
                if key.contains(0) { _ = explained("isCutAtNUL (key)") }
                if let difference = difference(entry.value, entries[index].value, at: "\(path).\(entry.key)") { return difference }
            }
            return nil
        case (.uid(let uid), .uid(let other)):
            return UInt64(uid) == other ? nil : "\(path): uid \(uid) vs \(other)"
        case (.uid(let uid), .dictionary(let entries)) where xml && KnownDeviation.isCFUIDDictionary(entries, uid) && explained("isCFUIDDictionary"):
            return nil
        default:
            return "\(path): \(ours.typeName) vs \(theirs)"
        }
    }
}

/// libplist's deviations, each a named rule (Specs/known-deviations.md, "libplist").
enum KnownDeviation {
    // MARK: (a) both accept, values differ

    /// libplist holds strings and keys as C strings: a key, and a string read
    /// from an ASCII object (`0x5n`), ends at its first NUL (`strlen`, `strdup`).
    /// True when `theirs` is `ours` cut before its first U+0000. (Keys are
    /// compared up to the first NUL by `PeerKey.matches`.)
    static func isCutAtNUL(_ ours: [UInt8], _ theirs: [UInt8]) -> Bool {
        guard let nul = ours.firstIndex(of: 0) else { return false }
        return theirs == Array(ours[..<nul])
    }

    /// libplist 2.2 reads `<integer>` text with `strtoull(text, NULL, 0)`: a
    /// leading `0` makes it octal, read up to the first digit 8 or 9
    /// (`0123` is 83, `094` is 0). We read decimal (`0123` is 123, as
    /// CoreFoundation and plistlib do). True when `theirs` is that octal
    /// reading of our value's digits (leading zeros do not change it), sign applied.
    static func isOctalReading(_ ours: PropertyListInteger, _ theirs: UInt64) -> Bool {
        let digits = ours.description.drop { $0 == "-" }
        var octal: UInt64 = 0
        for digit in digits {
            guard let value = digit.wholeNumberValue, value < 8 else { break }
            octal = octal &* 8 &+ UInt64(value)
        }
        return (ours.isNegative ? 0 &- octal : octal) == theirs
    }

    /// libplist 2.2's XML reader keeps `<dict><key>CF$UID</key><integer>N</integer></dict>`
    /// as a dictionary; CoreFoundation and we read the UID N.
    /// Its integer is read as any other (`isOctalReading`).
    static func isCFUIDDictionary(_ entries: [(key: PeerKey, value: PeerValue)], _ uid: UInt32) -> Bool {
        guard entries.count == 1, entries[0].key.matches(Array("CF$UID".utf8)), case .integer(let value) = entries[0].value else { return false }
        return value == UInt64(uid) || isOctalReading(PropertyListInteger(UInt64(uid)), value)
    }

    /// libplist 2.2 reads an XML date with `strptime("%Y-%m-%dT%H:%M:%SZ")`,
    /// whose `%Y` takes at most four digits and no sign: a date before year 0
    /// or from year 10000 on comes out as another date. True for seconds
    /// (since 2001) outside [0000-01-01T00:00:00Z, 10000-01-01T00:00:00Z).
    static func isDateOutsideStrptimeYears(_ seconds: Double) -> Bool {
        seconds < -63_145_526_400 || seconds >= 252_423_993_600
    }

    // MARK: (b) we accept, libplist refuses

    /// The name of the rule that makes libplist refuse a document we accept, or nil.
    static func libplistRefuses(_ bytes: [UInt8], value: PropertyListValue, binary: Bool,
                                shape: BinaryShape?, walk: BinaryShape.Walk?) -> String? {
        if binary {
            // libplist 2.2 has no null type: `parse_bin_node` refuses marker 0x00.
            if holdsNull(value) { return "nullObject" }
            // `plist_utf16be_to_utf8` returns NULL for zero units (0x60, or 0x6F
            // with a long count of 0), so the document is refused.
            if let shape, let walk, reachesEmptyUTF16String(shape, walk) { return "emptyUTF16String" }
        } else if startsWithByteOrderMark(bytes) {
            return "byteOrderMark"
        } else if holdsEmptyKey(value), hasEmptyElementKey(bytes) {
            return "emptyElementKey"
        } else if hasLongCharacterReference(bytes) {
            return "longCharacterReference"
        }
        return nil
    }

    /// libplist's `unescape_entities` refuses a numeric character reference
    /// of more than 8 characters between `&` and `;` ("sequence too long"):
    /// `&#x010FFFF;` (U+10FFFF with a leading zero) or `&#00000065;`, which
    /// XML allows (any number of digits) and libxml2 reads. True when the
    /// document has one outside CDATA sections and comments (where libplist
    /// unescapes nothing); checked only for a document we accept.
    static func hasLongCharacterReference(_ bytes: [UInt8]) -> Bool {
        func starts(_ text: String, at index: Int) -> Bool {
            let pattern = Array(text.utf8)
            return index + pattern.count <= bytes.count && bytes[index..<(index + pattern.count)].elementsEqual(pattern)
        }
        var index = 0
        while index < bytes.count {
            if starts("<![CDATA[", at: index) || starts("<!--", at: index) {
                let end = starts("<!--", at: index) ? "-->" : "]]>"
                index += 4
                while index < bytes.count, !starts(end, at: index) { index += 1 }
                continue
            }
            if starts("&#", at: index) {
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: ";") { end += 1 }
                if end < bytes.count, end - index - 1 > 8 { return true }
            }
            index += 1
        }
        return false
    }

    /// libplist's XML reader takes the empty-element tag `<key/>` for an empty
    /// *string* (its empty-tag branch makes every `<string/>`/`<key/>` a string
    /// node), so the dictionary then holds a value without a key, and it refuses
    /// the document ("missing key name"); `<key></key>` it reads as the empty
    /// key. True when the document has the tag `<key/>` (spaces allowed
    /// before `/>`); checked only when our value holds an empty key.
    static func hasEmptyElementKey(_ bytes: [UInt8]) -> Bool {
        let tag = Array("<key".utf8)
        var index = 0
        while index + tag.count < bytes.count {
            if bytes[index..<(index + tag.count)].elementsEqual(tag) {
                var end = index + tag.count
                while end < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[end]) { end += 1 }
                if end + 1 < bytes.count, bytes[end] == UInt8(ascii: "/"), bytes[end + 1] == UInt8(ascii: ">") { return true }
            }
            index += 1
        }
        return false
    }

    static func holdsEmptyKey(_ value: PropertyListValue) -> Bool {
        switch value {
        case .array(let elements): return elements.contains(where: holdsEmptyKey)
        case .dictionary(let dictionary): return dictionary.keys.contains("") || dictionary.values.contains(where: holdsEmptyKey)
        default: return false
        }
    }

    /// libplist's XML reader expects `<` or whitespace first: a byte-order
    /// mark (UTF-8, or UTF-16 either way, which we transcode) is text before
    /// the root to it, and it refuses the document.
    static func startsWithByteOrderMark(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE])
    }

    static func holdsNull(_ value: PropertyListValue) -> Bool {
        switch value {
        case .null: return true
        case .array(let elements): return elements.contains(where: holdsNull)
        case .dictionary(let dictionary): return dictionary.values.contains(where: holdsNull)
        default: return false
        }
    }

    /// True when an object libplist reads is a UTF-16 string of zero units.
    static func reachesEmptyUTF16String(_ shape: BinaryShape, _ walk: BinaryShape.Walk) -> Bool {
        walk.reached.indices.contains { walk.reached[$0] && shape.object($0).map { $0.type == 0x60 && $0.count == 0 } == true }
    }

    // MARK: (c) libplist accepts, we refuse

    /// The reason libplist may accept what `error` refuses, or nil (a finding).
    static func toleratedRefusal(_ error: PropertyListError, binary: Bool,
                                 shape: BinaryShape?, walk: BinaryShape.Walk?) -> String? {
        if let reason = limitRefusals[error.code] { return reason }
        if let reason = (binary ? binaryRefusals : xmlRefusals)[error.code] { return reason }
        if binary, let shape, let walk, case .byteOffset(let offset) = error.location,
           refusedInUnreadObject(offset, shape, walk) {
            return "libplist reads only the objects the top object reaches; we check every object of the table"
        }
        return nil
    }

    /// Our limits (this target's: depth 64, 4,096 objects, 1,024 members, 4 KiB
    /// strings and data, the expanded-size budget): libplist has none.
    static let limitRefusals: [ErrorCode: String] = [
        .inputTooLarge: "our limit", .depthLimitExceeded: "our limit", .objectLimitExceeded: "our limit",
        .collectionLimitExceeded: "our limit", .stringLimitExceeded: "our limit", .dataLimitExceeded: "our limit",
        .expansionLimitExceeded: "our limit",
    ]

    /// Binary rules of ours that libplist 2.2 does not check (Specs/known-deviations.md).
    static let binaryRefusals: [ErrorCode: String] = [
        .badTrailer: "libplist ignores the reserved bytes and sort version, takes any offset and reference width (over 8 bytes: the last 8), and does not check that they can address every object and the table",
        .badOffsetTable: "libplist needs the offset table only to lie between the header and the trailer",
        .badObjectOffset: "libplist reads an object at any offset below the table, the header's 8 bytes included",
        .unaccountedBytes: "libplist reads objects where the table points and never checks that they tile the object area",
        .badLength: "libplist takes any integer marker 0x10-0x1F as an extended count",
        .invalidASCII: "libplist copies the bytes of an ASCII string object as they are",
        .invalidUTF16: "libplist skips an unpaired surrogate",
        .unsupportedObject: "libplist reads a set (0xCn) as an array",
        .integerOutOfRange: "libplist keeps the low 64 bits of a 16-byte integer",
        .uidTooWide: "libplist reads UIDs of 1 to 16 bytes whose value is below 2^32",
        .duplicateKey: "libplist keeps every entry of a binary dictionary",
        .invalidDate: "libplist takes any double as a date",
    ]

    /// XML rules of ours that libplist 2.2 does not check (Specs/known-deviations.md).
    static let xmlRefusals: [ErrorCode: String] = [
        .malformedXML: "libplist's XML reader checks no well-formedness (tag and attribute syntax, characters, NUL bytes) and stops reading after the root value",
        .unsupportedEncoding: "libplist ignores the encoding declaration",
        .invalidUTF8: "libplist copies text bytes without decoding them",
        .forbiddenDeclaration: "libplist skips any document type declaration, internal subset included",
        .forbiddenNode: "libplist skips processing instructions",
        .emptyPrologComment: "libplist reads <!----> as an empty comment",
        .tagTooLong: "libplist has no limit on tags",
        .longCharacterReference: "libplist expands references only in <string> and <key> text and reads nothing after the root value",
        .misplacedReference: "libplist reads the text of other elements raw, references included",
        .unexpectedRoot: "libplist ignores <plist>'s attributes",
        .unknownElement: "libplist takes <plist> anywhere as a wrapper, not a value, and reads nothing after the root value",
        .unexpectedAttribute: "libplist ignores attributes",
        .misplacedElement: "libplist reads a <key> outside a dictionary as a string",
        .unexpectedText: "libplist ignores text inside <true> and <false> and everything after the root value",
        .commentInValue: "libplist skips comments inside text",
        .misplacedCDATA: "libplist reads CDATA in any element's text",
        .plistValueCount: "libplist reads the first value in <plist> and ignores the rest",
        .missingValue: "libplist drops a key that has no value",
        .duplicateKey: "libplist keeps the last value of a key",
        .invalidInteger: "libplist reads integers with strtoull, which takes any prefix that parses",
        .invalidReal: "libplist reads reals with atof, which takes any prefix that parses",
        .invalidDate: "libplist reads dates with strptime and takes a failed parse as some date",
        .invalidData: "libplist's base64 decoder skips what is not base64, and reads <data/> as empty data",
        .ambiguousLineEnding: "libplist keeps a raw carriage return",
        .leadingByteOrderMark: "libplist keeps a leading U+FEFF",
        .uidTooWide: "libplist keeps a CF$UID dictionary as a dictionary",
    ]

    /// True when our error concerns an object libplist never reads (we decode
    /// and check unreferenced objects too: Specs/binary-plist.md): an object
    /// the top object does not reach holds the error's byte, or refers to the
    /// object starting there (a key that is not a string is reported at the
    /// key's offset). Where objects overlap, a reached one may hold the byte
    /// as well; such a document breaks our layout rule anyway
    /// (`unaccountedBytes`, listed above), whichever rule we report first.
    static func refusedInUnreadObject(_ offset: Int, _ shape: BinaryShape, _ walk: BinaryShape.Walk) -> Bool {
        if shape.objects(holding: offset).contains(where: { !walk.reached[$0] }) { return true }
        return (0..<shape.objectCount).contains { index in
            guard !walk.reached[index], let object = shape.object(index) else { return false }
            return object.children.contains { shape.offset(of: $0) == offset }
        }
    }
}
