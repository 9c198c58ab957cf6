public import PropertyList
import UserInfo

// Error codes of the typed-JSON reader. Each is a rule in Specs/typed-json.md,
// under the same name. They are thrown as ``UserInfoError``s, the error of the
// userInfo layer, located by line and column.

extension ErrorCode {
    /// A typed-JSON `type` no reader knows.
    public static let unknownType = Self("unknownType")
    /// A typed-JSON integer or real that is not in canonical decimal form or out of range.
    public static let invalidNumber = Self("invalidNumber")
    /// Data that is not canonical padded base64.
    public static let invalidBase64 = Self("invalidBase64")
    /// A UUID that is not 8-4-4-4-12 hexadecimal digits.
    public static let invalidUUID = Self("invalidUUID")
}
