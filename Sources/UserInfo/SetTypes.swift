import Synchronization

/// Which types are `Set`s, remembered per type: asking the runtime whether a
/// type conforms to a protocol (`as? any SetEncodable`) costs over a thousand
/// instructions each time, and the Codable paths ask it for every value of a
/// type that does not map directly (measured on the Handoff trip state).
enum SetTypes {
    private static let known = Mutex<[ObjectIdentifier: Bool]>([:])

    /// False when `type` is known to be no `Set`; true when it is one, or not yet known.
    static func mayBeSet(_ type: Any.Type) -> Bool {
        let identifier = ObjectIdentifier(type)
        if let isSet = known.withLock({ $0[identifier] }) { return isSet }
        let isSet = type is any SetEncodable.Type || type is any SetDecodable.Type
        known.withLock { $0[identifier] = isSet }
        return isSet
    }
}
