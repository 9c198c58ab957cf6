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

    /// MP userInfo `bytes` on MP's tape, ready for the payload's changes and
    /// the state's decoding; nil where the direct path hands over: bytes that
    /// are no MP, or that the tape does not take.
    package static func directMPTape(_ bytes: Data, limits: PropertyListLimits) -> DirectMPUserInfo? {
        guard DocumentFormat.detect(bytes) == .mpUserInfo, let tape = MPTape([UInt8](bytes), limits: limits) else { return nil }
        return DirectMPUserInfo(tape: tape)
    }
}

/// An MP userInfo on MP's tape (``UserInfoWireForm/directMPTape(_:limits:)``):
/// the payload reads its version entry and translates its URLs there, then
/// decodes its state from it.
package struct DirectMPUserInfo {
    var tape: MPTape

    /// The top map's value under `key`, nil when absent.
    package func topValue(forKey key: String) -> UserInfoValue? {
        tape.topValue(forKey: key)
    }

    /// Replaces every URL by `translate`'s, in the order the tree's
    /// `URLTranslator` visits them; false, where the direct path hands over,
    /// for a URL `translate` refuses (nil).
    package mutating func translateURLs(_ translate: (UserInfoURL) -> UserInfoURL?) -> Bool {
        for index in 0..<tape.urlCount {
            let url = tape.url(index)
            guard let translated = translate(url) else { return false }
            if translated != url { tape.replaceURL(index, with: translated) }
        }
        return true
    }

    /// The state the userInfo holds, decoded within `limits` (those the tape
    /// was made with) with `options`.
    ///
    /// - Throws: `DecodingError` for a userInfo that does not decode as `State`.
    package func decode<State: Decodable>(_ type: State.Type, limits: PropertyListLimits, options: UserInfoDecoder) throws -> State {
        try MPUserInfoDecoder(limits: limits, options: options).decode(type, from: tape)
    }
}
