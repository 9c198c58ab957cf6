import Foundation
import PropertyBased
import PropertyList
import TypedJSON
import UserInfo

// MARK: - Typed JSON of the peers, for userInfo values (independent of our reader)

extension PeerTypedJSON {
    /// Parses a peer's typed JSON (Foundation's JSONSerialization) into a userInfo value.
    public static func userInfo(from data: Data) throws -> UserInfoValue {
        try userInfo(fromObject: try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
    }

    public static func userInfo(fromObject object: Any) throws -> UserInfoValue {
        guard let node = object as? [String: Any], let type = node["type"] as? String else {
            throw Malformed(description: "not a typed node: \(object)")
        }
        switch type {
        case "null": return .null
        case "uuid":
            guard let text = node["value"] as? String, let uuid = UUID(uuidString: text) else { throw Malformed(description: "uuid") }
            return .uuid(uuid)
        case "url": return .url(try url(node))
        case "set":
            guard let members = node["value"] as? [Any] else { throw Malformed(description: "set") }
            return .set(UserInfoSet(try members.map(userInfo(fromObject:))))
        case "array":
            guard let elements = node["value"] as? [Any] else { throw Malformed(description: "array") }
            return .array(try elements.map(userInfo(fromObject:)))
        case "dict":
            guard let entries = node["value"] as? [String: Any] else { throw Malformed(description: "dict") }
            var dictionary = UserInfoDictionary()
            for (key, member) in entries { dictionary[key] = try userInfo(fromObject: member) }
            return .dictionary(dictionary)
        default:
            switch try value(fromObject: object) {
            case .string(let v): return .string(v)
            case .integer(let v): return .number(.integer(v))
            case .real(let v): return .number(.real(v))
            case .bool(let v): return .number(.bool(v))
            case .date(let v): return .date(v)
            case .data(let v): return .data(v)
            default: throw Malformed(description: "not a userInfo type: \(type)")
            }
        }
    }

    private static func url(_ node: [String: Any]) throws -> UserInfoURL {
        guard let relative = node["relative"] as? String else { throw Malformed(description: "url without relative") }
        if let base = node["base"] as? [String: Any] { return UserInfoURL(relative: relative, base: try url(base)) }
        return UserInfoURL(relative: relative)
    }
}

/// Equality as peers can report it (dates to the microsecond, NaN == NaN).
public func peerEqual(_ a: UserInfoValue, _ b: UserInfoValue) -> Bool {
    switch (a, b) {
    case let (.date(x), .date(y)):
        let micros = { (d: Date) in (d.timeIntervalSinceReferenceDate * 1_000_000).rounded() }
        return abs(micros(x) - micros(y)) <= 1
    case let (.number(.real(x)), .number(.real(y))):
        return x.isNaN && y.isNaN || x.bitPattern == y.bitPattern
    case let (.array(x), .array(y)):
        return x.count == y.count && zip(x, y).allSatisfy(peerEqual)
    case let (.dictionary(x), .dictionary(y)):
        return x.count == y.count && x.allSatisfy { entry in y[entry.key].map { peerEqual(entry.value, $0) } ?? false }
    case let (.set(x), .set(y)):
        return x.count == y.count && x.allSatisfy { member in y.contains { peerEqual(member, $0) } }
    default:
        return a == b
    }
}

extension Peers {
    /// Linux Foundation's NSKeyedUnarchiver (secure coding, the ten classes), in a child process.
    public static func foundationUnarchive(_ files: [URL]) throws -> [Result<UserInfoValue, Missing>] {
        let peer = Paths.product("foundation-peer").path
        guard FileManager.default.isExecutableFile(atPath: peer) else { throw Missing(description: "foundation-peer was not built") }
        let output = try run(peer, ["--unarchive"] + files.map(\.path)).stdout
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).prefix(files.count)
        guard lines.count == files.count else { throw Missing(description: "peer printed \(lines.count) lines for \(files.count) files") }
        return try lines.map { line in
            if line.hasPrefix("!") { return .failure(Missing(description: String(line.dropFirst()))) }
            return .success(try PeerTypedJSON.userInfo(from: Data(line.utf8)))
        }
    }
}

// MARK: - Random userInfo values

/// Random userInfo values of all ten types, for property-based tests.
public struct UserInfoGenerator: Sendable {
    public var maxDepth: Int
    public var maxWidth: Int
    /// Dates within 1900...3000 and no NaN reals (what every peer handles).
    public var peerSafe: Bool

    public init(maxDepth: Int = 4, maxWidth: Int = 5, peerSafe: Bool = false) {
        (self.maxDepth, self.maxWidth, self.peerSafe) = (maxDepth, maxWidth, peerSafe)
    }

    public var generator: Generator<UserInfoValue, Shrink.None<UserInfoValue>> {
        let settings = self
        return Generator { rng in settings.value(depth: 0, using: &rng) }
    }

    public func value(depth: Int, using rng: inout any SeededRandomNumberGenerator) -> UserInfoValue {
        let scalars = ValueGenerator(allowNull: false, allowUID: false, ordinaryDates: peerSafe)
        let containerWeight = depth < maxDepth ? 3 : 0
        switch Int.random(in: 0..<(12 + 3 * containerWeight), using: &rng) {
        case 0, 1: return .string(nonReserved(scalars.string(using: &rng)))
        case 2: return .number(.integer(scalars.integer(using: &rng)))
        case 3:
            let real = scalars.real(using: &rng)
            return .number(.real(peerSafe && real.isNaN ? 0.5 : real))
        case 4: return .number(.bool(Bool.random(using: &rng)))
        case 5: return .date(scalars.date(using: &rng))
        case 6: return .data(Data((0..<Int.random(in: 0...24, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }))
        case 7: return .null
        case 8: return .uuid(UUID(uuid: (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }.withUnsafeBytes { $0.load(as: uuid_t.self) }))
        case 9, 10: return .url(url(depth: peerSafe ? 1 : 0, using: &rng))
        case 11: return .string(["", "a", "hello", "$nul", "é"].randomElement(using: &rng)!)
        case 12..<(12 + containerWeight):
            return .array((0..<Int.random(in: 0...maxWidth, using: &rng)).map { _ in value(depth: depth + 1, using: &rng) })
        case (12 + containerWeight)..<(12 + 2 * containerWeight):
            var set = UserInfoSet()
            var identities = Set<String>()
            for _ in 0..<Int.random(in: 0...maxWidth, using: &rng) {
                let member = value(depth: depth + 1, using: &rng)
                // Keep members Foundation would also keep apart (no 1 / 1.0 / true collisions).
                let key = Self.foundationKey(member)
                if identities.insert(key).inserted { set.insert(member) }
            }
            return .set(set)
        default:
            var dictionary = UserInfoDictionary()
            for _ in 0..<Int.random(in: 0...maxWidth, using: &rng) {
                dictionary.insertNew(value(depth: depth + 1, using: &rng), forKey: nonReserved(scalars.string(using: &rng)))
            }
            return .dictionary(dictionary)
        }
    }

    private func nonReserved(_ string: String) -> String { string == "$null" ? "$nul" : string }

    func url(depth: Int, using rng: inout any SeededRandomNumberGenerator) -> UserInfoURL {
        let absolute = ["https://www.example.com", "https://x.org/a/b?q=1#f", "mailto:a@b.c", "file:///tmp/doc.txt", "urn:isbn:0451450523"]
        // Peers resolve ".." differently (CoreFoundation keeps it above the root), so peer-safe values avoid it.
        let relative = peerSafe ? ["foo.xml", "?query", "#frag", "dir/", "a%20b"] : ["foo.xml", "../up/here", "?query", "#frag", "dir/", "a%20b"]
        if depth < 2, Bool.random(using: &rng) {
            // Peers resolve against opaque bases (mailto:, urn:) differently, so peer-safe bases are hierarchical.
            let base = peerSafe ? UserInfoURL(relative: ["https://www.example.com", "https://x.org/a/b?q=1#f", "file:///tmp/doc.txt"].randomElement(using: &rng)!)
                                : url(depth: depth + 1, using: &rng)
            return UserInfoURL(relative: relative.randomElement(using: &rng)!, base: base)
        }
        return UserInfoURL(relative: absolute.randomElement(using: &rng)!)
    }

    /// A coarse stand-in for Foundation's isEqual: numbers by numeric value.
    static func foundationKey(_ value: UserInfoValue) -> String {
        switch value {
        case .number(.bool(let b)): return "n:\(b ? 1.0 : 0.0)"
        case .number(.integer(let i)): return "n:\(Double(i.description)!)"
        case .number(.real(let r)): return r.isNaN ? "n:nan" : "n:\(r == 0 ? 0 : r)"
        case .date(let d): return "d:\(d.timeIntervalSinceReferenceDate == 0 ? 0 : d.timeIntervalSinceReferenceDate)"
        case .array(let a): return "a:[" + a.map(foundationKey).joined(separator: ",") + "]"
        case .set(let s): return "s:{" + s.members.map(foundationKey).sorted().joined(separator: ",") + "}"
        case .dictionary(let d): return "d:{" + d.sortedKeys.map { "\($0)=\(foundationKey(d[$0]!))" }.joined(separator: ",") + "}"
        default: return "v:\(value.hashValue):\(TypedJSONWriter.text(value))"
        }
    }
}
