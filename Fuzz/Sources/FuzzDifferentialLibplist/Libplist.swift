// libplist 2.2's reading of a document, as a Swift tree (Specs/fuzzing.md,
// "Differential fuzzing against libplist"). Only this file calls libplist.
import CLibplist
#if canImport(Glibc)
import Glibc
#endif

/// A value as libplist holds it: integers as the 64 bits it keeps (two's
/// complement for negatives), strings and keys as the bytes it gives back,
/// dates as the exact `double` it stores.
indirect enum PeerValue {
    case bool(Bool)
    case integer(UInt64)
    case real(Double)
    case date(Double)
    case data([UInt8])
    case string([UInt8])
    case array([PeerValue])
    case dictionary([(key: PeerKey, value: PeerValue)])
    case uid(UInt64)
    /// A node type the comparison does not expect (`PLIST_KEY` as a value,
    /// `PLIST_NONE`), a date it could not read back, or a tree deeper than
    /// `Libplist.maxDepth`: never equal to anything of ours.
    case unexpected(String)
}

/// A dictionary key of libplist's, compared without reading it out.
///
/// libplist 2.2 asserts (`abort`) in `plist_get_key_val`, which its dictionary
/// iterator calls, when a key's stored length is not its `strlen`: a UTF-16
/// key object holding U+0000 (found by this target,
/// `Corpus/differential-libplist/libplist-utf16-key-with-nul-asserts`). So
/// the key node is reached through `plist_dict_item_get_key` and compared
/// with `plist_key_val_compare_with_size` (a `strncmp`), which never asserts:
/// it sees the key up to its first NUL, as every caller of libplist does.
struct PeerKey: CustomStringConvertible {
    let node: plist_t

    /// True when the key is `bytes` up to the first NUL of either (with the
    /// terminator compared, so a longer key is not equal to its prefix).
    func matches(_ bytes: [UInt8]) -> Bool {
        (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { plist_key_val_compare_with_size(node, $0.baseAddress, $0.count) == 0 }
        }
    }

    var description: String { "a libplist key" }
}

/// One document parsed by libplist; the tree is freed with the document.
final class LibplistDocument {
    let root: plist_t

    /// libplist's reading of `bytes`, or nil when it refuses them.
    /// `binary` chooses `plist_from_bin`, otherwise `plist_from_xml`, as our
    /// own dispatch chooses the binary or XML reader.
    init?(_ bytes: [UInt8], binary: Bool) {
        var root: plist_t? = nil
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                if binary {
                    plist_from_bin(chars.baseAddress, UInt32(chars.count), &root)
                } else {
                    plist_from_xml(chars.baseAddress, UInt32(chars.count), &root)
                }
            }
        }
        guard let root else { return nil }
        self.root = root
    }

    deinit { plist_free(root) }

    /// The tree, converted only when both readers accepted the document.
    var value: PeerValue { Libplist.convert(root, depth: 0) }
}

enum Libplist {
    /// Our readers stop at depth 64 in this target; a deeper libplist tree is
    /// a difference anyway, and the conversion recurses.
    static let maxDepth = 128

    static func convert(_ node: plist_t, depth: Int) -> PeerValue {
        guard depth <= maxDepth else { return .unexpected("deeper than \(maxDepth)") }
        let type = plist_get_node_type(node)
        switch type {
        case PLIST_BOOLEAN:
            var flag: UInt8 = 0
            plist_get_bool_val(node, &flag)
            return .bool(flag != 0)
        case PLIST_UINT:
            var bits: UInt64 = 0
            plist_get_uint_val(node, &bits)
            return .integer(bits)
        case PLIST_REAL:
            var real: Double = 0
            plist_get_real_val(node, &real)
            return .real(real)
        case PLIST_DATE:
            guard let seconds = exactDate(node) else { return .unexpected("a date plist_to_bin did not write back") }
            return .date(seconds)
        case PLIST_DATA:
            var length: UInt64 = 0
            guard let pointer = plist_get_data_ptr(node, &length), length > 0 else { return .data([]) }
            return .data(pointer.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { Array(UnsafeBufferPointer(start: $0, count: Int(length))) })
        case PLIST_STRING:
            var length: UInt64 = 0
            guard let pointer = plist_get_string_ptr(node, &length) else { return .string([]) }
            return .string(pointer.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { Array(UnsafeBufferPointer(start: $0, count: Int(length))) })
        case PLIST_ARRAY:
            let count = plist_array_get_size(node)
            var elements: [PeerValue] = []
            elements.reserveCapacity(Int(count))
            for index in 0..<count {
                guard let item = plist_array_get_item(node, index) else { return .unexpected("array item \(index) missing") }
                elements.append(convert(item, depth: depth + 1))
            }
            return .array(elements)
        case PLIST_DICT:
            var entries: [(key: PeerKey, value: PeerValue)] = []
            var iterator: plist_dict_iter? = nil
            plist_dict_new_iter(node, &iterator)
            guard let iterator else { return .unexpected("no dictionary iterator") }
            defer { free(iterator) }
            while true {
                // No key pointer: the iterator would read the key with
                // plist_get_key_val, which can abort (PeerKey).
                var item: plist_t? = nil
                plist_dict_next_item(node, iterator, nil, &item)
                guard let item else { break }
                guard let key = plist_dict_item_get_key(item) else { return .unexpected("a dictionary value without a key node") }
                entries.append((PeerKey(node: key), convert(item, depth: depth + 1)))
            }
            return .dictionary(entries)
        case PLIST_UID:
            var uid: UInt64 = 0
            plist_get_uid_val(node, &uid)
            return .uid(uid)
        default:
            return .unexpected("node type \(type.rawValue)")
        }
    }

    /// The date's `double` exactly. `plist_get_date_val` would give it as
    /// `int32_t` seconds (out of range past ±2³¹ s, about 1933–2069) and
    /// unsigned microseconds (the sign of a fraction in (−1, 0) lost, below a
    /// microsecond lost); a copy of the node written by `plist_to_bin` holds
    /// the `double` itself (marker `0x33`, bytes 9–16).
    static func exactDate(_ node: plist_t) -> Double? {
        guard let copy = plist_copy(node) else { return nil }
        defer { plist_free(copy) }
        var output: UnsafeMutablePointer<CChar>? = nil
        var length: UInt32 = 0
        plist_to_bin(copy, &output, &length)
        guard let output else { return nil }
        defer { plist_to_bin_free(output) }
        guard length >= 17, UInt8(bitPattern: output[8]) == 0x33 else { return nil }
        var bits: UInt64 = 0
        for index in 9..<17 { bits = bits << 8 | UInt64(UInt8(bitPattern: output[index])) }
        return Double(bitPattern: bits)
    }
}
