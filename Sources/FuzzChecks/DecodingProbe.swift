public import FoundationEssentials
import MPUserInfo
import PropertyList

/// Reads any userInfo value through every container kind: maps through a keyed
/// container (every key, by `allKeys`, in reverse) at even depths and as
/// `[String: DecodingProbe]` at odd ones, arrays through an unkeyed container or as
/// `[DecodingProbe]`, scalars by trying each type in turn.
public indirect enum DecodingProbe: Decodable, Equatable, Sendable {
    case null, bool(Bool), integer(Int64), unsigned(UInt64), real(bits: UInt64), string(String)
    case date(Date), data(Data), uuid(UUID), url(URL), keyed([String: DecodingProbe]), unkeyed([DecodingProbe])

    /// Reads the value `decoder` holds.
    public init(from decoder: any Decoder) throws {
        let even = decoder.codingPath.count % 2 == 0
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            if even {
                var members: [String: DecodingProbe] = [:]
                for key in keyed.allKeys.reversed() {
                    members[key.stringValue] = try keyed.decodeNil(forKey: key) ? .null : try keyed.decode(DecodingProbe.self, forKey: key)
                }
                self = .keyed(members)
            } else {
                self = .keyed(try decoder.singleValueContainer().decode([String: DecodingProbe].self))
            }
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            if even {
                var elements: [DecodingProbe] = []
                while !unkeyed.isAtEnd { elements.append(try unkeyed.decodeNil() ? .null : try unkeyed.decode(DecodingProbe.self)) }
                self = .unkeyed(elements)
            } else {
                self = .unkeyed(try decoder.singleValueContainer().decode([DecodingProbe].self))
            }
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .null }
        else if let value = try? single.decode(Bool.self) { self = .bool(value) }
        else if let value = try? single.decode(Int64.self) { self = .integer(value) }
        else if let value = try? single.decode(UInt64.self) { self = .unsigned(value) }
        else if let value = try? single.decode(Double.self) { self = .real(bits: value.bitPattern) }
        else if let value = try? single.decode(String.self) { self = .string(value) }
        else if let value = try? single.decode(Date.self) { self = .date(value) }
        else if let value = try? single.decode(Data.self) { self = .data(value) }
        else if let value = try? single.decode(UUID.self) { self = .uuid(value) }
        else { self = .url(try single.decode(URL.self)) }
    }

    /// A key for any string.
    public struct AnyKey: CodingKey {
        public var stringValue: String
        public var intValue: Int? { nil }
        public init(stringValue: String) { self.stringValue = stringValue }
        public init?(intValue: Int) { nil }
    }
}

/// directDecodeHandOver (Specs/codable.md, "Direct MP decoding"): on every
/// input, read or refused, the direct MP decoder gives what the tree path
/// (`MPUserInfoReader` + `UserInfoDecoder`) gives — the same probe value, or
/// the same error — under limits the size alone does not prove unreachable
/// (and a depth of 16), and under the target's limits for inputs up to 1 KiB.
/// (The probe, not the decoders, costs depth × values: its failed tries
/// spell out coding paths.)
struct DirectDecodeOracle {
    let limits: PropertyListLimits

    func check(_ bytes: [UInt8]) throws(FuzzFinding) {
        var tight = limits
        (tight.maxObjects, tight.maxStringBytes, tight.maxCollectionCount) = (max(bytes.count / 8, 4), 24, 12)
        tight.maxDepth = min(tight.maxDepth, 16)
        let decoders = bytes.count <= 1_024 ? [MPUserInfoDecoder(limits: tight), MPUserInfoDecoder(limits: limits)] : [MPUserInfoDecoder(limits: tight)]
        for decoder in decoders {
            let direct = Self.outcome { try decoder.decode(DecodingProbe.self, from: bytes) }
            let tree = Self.outcome { try decoder.treeDecode(DecodingProbe.self, from: bytes) }
            guard direct == tree else {
                throw FuzzFinding(entryPoint: .mpDecode, message: "the direct MP decoder and the tree path disagree: \(direct.text) against \(tree.text)")
            }
        }
    }

    /// A decoding's value, or its error as text.
    private static func outcome(_ body: () throws -> DecodingProbe) -> Outcome {
        do { return .value(try body()) } catch { return .error("\(error)") }
    }

    private enum Outcome: Equatable {
        case value(DecodingProbe), error(String)
        var text: String {
            switch self {
            case .value: "a value"
            case .error(let text): "error \(text)"
            }
        }
    }
}
