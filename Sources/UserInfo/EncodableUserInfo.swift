import FoundationEssentials
import PropertyList

/// A userInfo value as an `Encodable` that writes itself through containers, as
/// a Codable state does: dictionaries keyed, arrays unkeyed, sets as `Set`,
/// the rest as single values of their Swift types. For the differential
/// oracles of the direct Codable paths (Specs/codable.md, "Direct MP encoding"):
/// the unit tests and the mp-decode fuzz target.
package struct EncodableUserInfo: Encodable, Hashable {
    package let value: UserInfoValue

    package init(value: UserInfoValue) { self.value = value }

    package struct Key: CodingKey {
        package var stringValue: String
        package var intValue: Int? { nil }
        package init(_ string: String) { stringValue = string }
        package init?(stringValue: String) { self.init(stringValue) }
        package init?(intValue: Int) { nil }
    }

    package func encode(to encoder: any Encoder) throws {
        switch value {
        case .dictionary(let dictionary):
            var container = encoder.container(keyedBy: Key.self)
            for (key, member) in dictionary { try container.encode(EncodableUserInfo(value: member), forKey: Key(key)) }
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(EncodableUserInfo(value: element)) }
        default:
            var container = encoder.singleValueContainer()
            switch value {
            case .set(let set): try container.encode(Set(set.members.map(EncodableUserInfo.init)))
            case .null: try container.encodeNil()
            case .string(let string): try container.encode(string)
            case .number(.bool(let flag)): try container.encode(flag)
            case .number(.real(let real)): try container.encode(real)
            case .number(.integer(let integer)):
                if let signed = integer.int64Value { try container.encode(signed) } else { try container.encode(integer.uint64Value!) }
            case .data(let data): try container.encode(data)
            case .date(let date): try container.encode(date)
            case .uuid(let uuid): try container.encode(uuid)
            case .url(let url):
                if let resolved = url.url { try container.encode(resolved) } else { try container.encode(url.relative) }
            case .dictionary, .array: preconditionFailure("handled above")
            }
        }
    }
}

