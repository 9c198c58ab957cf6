package import FoundationEssentials
import MPUserInfo
package import PropertyList
package import UserInfo

/// The payload layer's Codable paths of an MP userInfo (Specs/payload.md,
/// "Codable states"; Specs/codable.md): a state written straight to MP bytes
/// and read straight from them, with the payload's own changes — its version
/// entry, its URLs — made on the way. Each returns nil where the direct path
/// hands over to the tree path (`directPayloadHandOver`), which finds the same
/// bytes, state or error.
extension UserInfoWireForm {
    /// A state's MP bytes, its URLs replaced by `translate`'s (nil hands over)
    /// and `entries` added at the end of the top map (a key the state wrote
    /// too hands over); nil where the direct path hands over.
    package static func directMPBytes<State: Encodable>(_ state: State, encoder: UserInfoEncoder, limits: WriterLimits,
                                                        translatingURLs translate: @escaping (UserInfoURL) -> UserInfoURL?,
                                                        appending entries: UserInfoDictionary) -> [UInt8]? {
        MPUserInfoEncoder(encoder: encoder, limits: limits).directBytes(state, translatingURLs: translate, appending: entries)
    }

    /// The state that MP userInfo `bytes` hold, read from MP's tape: the top
    /// map's value under `key` (nil when absent) first passed to `accepts`,
    /// then every URL replaced by `translate`'s, in the order the tree's
    /// `URLTranslator` visits them. Nil where the direct path hands over: bytes
    /// that are no MP or that the tape does not take, `accepts` false, a URL
    /// `translate` refuses.
    ///
    /// - Throws: `DecodingError` for a userInfo that does not decode as `State`.
    package static func directMPState<State: Decodable>(_ type: State.Type, from bytes: Data, limits: PropertyListLimits,
                                                        options: UserInfoDecoder, checkingEntry key: String?,
                                                        _ accepts: (UserInfoValue?) -> Bool,
                                                        translatingURLs translate: (UserInfoURL) -> UserInfoURL?) throws -> State? {
        guard DocumentFormat.detect(bytes) == .mpUserInfo, var tape = MPTape([UInt8](bytes), limits: limits) else { return nil }
        if let key, !accepts(tape.topValue(forKey: key)) { return nil }
        for index in 0..<tape.urlCount {
            let url = tape.url(index)
            guard let translated = translate(url) else { return nil }
            if translated != url { tape.replaceURL(index, with: translated) }
        }
        return try MPUserInfoDecoder(limits: limits, options: options).decode(type, from: tape)
    }
}
