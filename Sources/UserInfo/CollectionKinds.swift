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

    private static let known = Mutex<[ObjectIdentifier: Kind]>([:])

    package static func kind(_ type: Any.Type) -> Kind {
        let identifier = ObjectIdentifier(type)
        if let kind = known.withLock({ $0[identifier] }) { return kind }
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
        known.withLock { $0[identifier] = kind }
        return kind
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
