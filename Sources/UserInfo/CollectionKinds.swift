import Synchronization

/// The collection types the Codable paths map themselves: `Set` (a userInfo
/// set), `[String: V]` (a dictionary, entry by entry, without a keyed
/// container and its keys) and, in the decoder, `[V]` (element by element,
/// without an unkeyed container). Remembered per type: asking the runtime whether a
/// type conforms to a protocol (`as? any SetEncodable`) costs over a thousand
/// instructions each time, and the Codable paths ask it for every value of a
/// type that does not map directly (measured on the Handoff trip state).
package enum CollectionKinds {
    package enum Kind { case other, set, stringDictionary, array }

    private static let known = Mutex(KindTable())

    package static func kind(_ type: Any.Type) -> Kind {
        let identifier = UInt(bitPattern: ObjectIdentifier(type))
        if let kind = known.withLock({ $0.kind(of: identifier) }) { return kind }
        let kind: Kind
        if type is any SetEncodable.Type || type is any SetDecodable.Type {
            kind = .set
        } else if type is any StringDictionaryEncodable.Type || type is any StringDictionaryDecodable.Type {
            kind = .stringDictionary
        } else if type is any ArrayDecodable.Type {
            kind = .array
        } else {
            kind = .other
        }
        known.withLock { $0.insert(kind, for: identifier) }
        return kind
    }

    /// The kinds found so far, by metadata address: open addressing with a
    /// multiplicative hash of the address (a dictionary's SipHash cost more
    /// than the rest of a lookup; measured on the Handoff trip state). It
    /// holds one entry per type the program codes: a bounded number.
    struct KindTable {
        private var addresses = [UInt](repeating: 0, count: 64)
        private var kinds = [Kind](repeating: .other, count: 64)
        private var count = 0

        private func slot(_ address: UInt) -> Int {
            Int(truncatingIfNeeded: ((address >> 4) &* 0x9E37_79B9_7F4A_7C15) >> 32) & (addresses.count - 1)
        }

        func kind(of address: UInt) -> Kind? {
            var index = slot(address)
            while addresses[index] != 0 {
                if addresses[index] == address { return kinds[index] }
                index = (index + 1) & (addresses.count - 1)
            }
            return nil
        }

        mutating func insert(_ kind: Kind, for address: UInt) {
            guard self.kind(of: address) == nil else { return }
            if 2 * (count + 1) > addresses.count {
                let old = zip(addresses, kinds).filter { $0.0 != 0 }
                addresses = [UInt](repeating: 0, count: 2 * addresses.count)
                kinds = [Kind](repeating: .other, count: addresses.count)
                count = 0
                for (address, kind) in old { insert(kind, for: address) }
            }
            var index = slot(address)
            while addresses[index] != 0 { index = (index + 1) & (addresses.count - 1) }
            addresses[index] = address
            kinds[index] = kind
            count += 1
        }
    }
}

/// Marks `[String: V]`, written entry by entry as a dictionary.
protocol StringDictionaryEncodable {
    /// The entries, each boxed by `encoding` at its key (in the dictionary's own order).
    func encodeEntries(with encoding: UserInfoEncoding, at path: CodingPathNode) throws -> UserInfoValue
}

extension Dictionary: StringDictionaryEncodable where Key == String, Value: Encodable {
    func encodeEntries(with encoding: UserInfoEncoding, at path: CodingPathNode) throws -> UserInfoValue {
        let storage = KeyedStorage()
        for (key, value) in self {
            storage.set(try encoding.box(value, at: path.appending(AnyCodingKey(dictionaryKey: key))), forKey: key)
        }
        return try storage.resolve()
    }
}

/// `[String: V]` as its entries, for a writer that streams them (MPUserInfo's
/// direct encoder): the same entries, in the same order, as
/// `StringDictionaryEncodable` boxes.
package protocol StringDictionaryEntries {
    /// Calls `body` with each entry, in the dictionary's own order.
    func forEachEntry(_ body: (String, any Encodable) throws -> Void) throws
}

extension Dictionary: StringDictionaryEntries where Key == String, Value: Encodable {
    package func forEachEntry(_ body: (String, any Encodable) throws -> Void) throws {
        for (key, value) in self { try body(key, value) }
    }
}

/// Marks `[String: V]`, read entry by entry from a dictionary.
protocol StringDictionaryDecodable {
    static func decodeEntries(_ dictionary: UserInfoDictionary, with decoder: UserInfoDecoding) throws -> Self
}

extension Dictionary: StringDictionaryDecodable where Key == String, Value: Decodable {
    static func decodeEntries(_ dictionary: UserInfoDictionary, with decoder: UserInfoDecoding) throws -> [String: Value] {
        var result: [String: Value] = Dictionary(minimumCapacity: dictionary.count)
        for (key, member) in dictionary {
            result[key] = try decoder.unbox(member, as: Value.self, at: decoder.path.appending(AnyCodingKey(dictionaryKey: key)))
        }
        return result
    }
}

/// Marks `[V]`, read element by element from an array or a set's members
/// (whatever an unkeyed container reads).
protocol ArrayDecodable {
    static func decodeElements(_ elements: [UserInfoValue], with decoder: UserInfoDecoding) throws -> Self
}

extension Array: ArrayDecodable where Element: Decodable {
    static func decodeElements(_ elements: [UserInfoValue], with decoder: UserInfoDecoding) throws -> [Element] {
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for (position, element) in elements.enumerated() {
            result.append(try decoder.unbox(element, as: Element.self, at: decoder.path.appending(AnyCodingKey(position))))
        }
        return result
    }
}
