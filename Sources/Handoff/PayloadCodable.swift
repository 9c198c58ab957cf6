import ActivityContainer
public import DocumentFormats
public import FoundationEssentials
import PropertyList
public import UserInfo

/// A payload decoded straight into an app's `Decodable` state.
public struct DecodedState<State> {
    /// The state, decoded from the payload's userInfo (migrated, URLs translated).
    public var state: State
    /// The activity's own fields (type, title, web page URL, identifiers);
    /// its `userInfo` is left empty: the userInfo is ``state``.
    public var activity: ActivityPayload
    /// The form the userInfo travelled in.
    public var userInfoForm: UserInfoWireForm
    /// The version found in userInfo before migration (nil without versioning).
    public var foundVersion: PayloadVersion?
}

extension DecodedState: Sendable where State: Sendable {}

extension PayloadCodec {
    /// Encodes a Codable state as a payload's userInfo (Specs/payload.md,
    /// "Codable states"): exactly ``encode(_:)`` of `activity` with its userInfo
    /// replaced by `encoder.encodeDictionary(state)`, the same bytes or the same error.
    ///
    /// The state is written straight to MP (`MPUserInfoEncoder`, through the
    /// format layer's `UserInfoWireForm.directMPBytes`); its URLs are
    /// translated and the version stamped on those bytes; anything else takes
    /// the tree path (`directPayloadHandOver`).
    ///
    /// ```swift
    /// let sent = try mac.encode(state, activity: ActivityPayload(activityType: "com.example.planner.edit"))
    /// ```
    ///
    /// - Throws: ``PayloadError`` for the payload, `EncodingError` for a state
    ///   that has no userInfo form.
    public func encode<State: Encodable>(_ state: State, activity: ActivityPayload,
                                         encoder: UserInfoEncoder = UserInfoEncoder()) throws -> EncodedPayload {
        if let direct = try directEncode(state, activity: activity, encoder: encoder) { return direct }
        return try treeEncode(state, activity: activity, encoder: encoder)
    }

    /// The tree path: the state's userInfo tree, then ``encode(_:)``.
    package func treeEncode<State: Encodable>(_ state: State, activity: ActivityPayload, encoder: UserInfoEncoder) throws -> EncodedPayload {
        var payload = activity
        payload.userInfo = try encoder.encodeDictionary(state)
        return try encode(payload)
    }

    /// The direct path, or nil where it hands over to the tree path
    /// (directPayloadHandOver): a refusal before the userInfo's bytes (the
    /// tree path finds it again), a keyed-archive form, required keys or a cost
    /// report per key path, a state the direct encoder does not take, a
    /// version key the state writes itself, a URL the translator refuses or
    /// inside a value mapped whole. From the bytes on (`send`, with its
    /// payloadLimits check), both paths run the same code.
    package func directEncode<State: Encodable>(_ state: State, activity: ActivityPayload, encoder: UserInfoEncoder) throws -> EncodedPayload? {
        var outgoing = activity
        outgoing.userInfo = [:]
        guard !reportsCostPerKeyPath, userInfoForm == .mp, activity.requiredUserInfoKeys == nil,
              (try? validate()) != nil, (try? outgoing.validate()) != nil else { return nil }
        // The URLs translated as they are written; the version stamped at the end of
        // the top map (a state that wrote the key itself hands over: the tree
        // replaces it in place).
        let translator = URLTranslator(policy: policy), layout = self.layout
        let stamp: UserInfoDictionary = versioning?.stamp([:]) ?? [:]
        guard let userInfoBytes = UserInfoWireForm.directMPBytes(state, encoder: encoder, limits: WriterLimits(limits),
                                                                 translatingURLs: { try? translator.outgoingURL($0, layout) },
                                                                 appending: stamp) else { return nil }
        return try send(outgoing, userInfoBytes: Data(userInfoBytes))
    }

    /// Decodes a payload and its userInfo into `State` (Specs/payload.md,
    /// "Codable states"): exactly ``decode(_:)`` then `decoder.decode(State.self,
    /// from: .dictionary(payload.userInfo))`, the same state or the same error.
    ///
    /// An MP userInfo is read straight into the state (`MPUserInfoDecoder`'s
    /// tape, through the format layer's `UserInfoWireForm.directMPTape`), with
    /// the version checked and the URLs translated on the tape;
    /// anything else takes the tree path (`directPayloadHandOver`).
    ///
    /// ```swift
    /// let received = try PayloadCodec(layout: .iOS(...)).decode(TripState.self, from: data)
    /// ```
    ///
    /// - Throws: ``PayloadError`` for the payload, `DecodingError` for a
    ///   userInfo that does not decode as `State`.
    public func decode<State: Decodable>(_ type: State.Type, from data: Data,
                                         decoder: UserInfoDecoder = UserInfoDecoder()) throws -> DecodedState<State> {
        if let direct = try directDecode(type, from: data, decoder: decoder) { return direct }
        return try treeDecode(type, from: data, decoder: decoder)
    }

    /// The tree path: ``decode(_:)``, then `UserInfoDecoder` over its userInfo.
    package func treeDecode<State: Decodable>(_ type: State.Type, from data: Data,
                                              decoder: UserInfoDecoder) throws -> DecodedState<State> {
        let decoded = try decode(data)
        let state = try decoder.decode(type, from: .dictionary(decoded.payload.userInfo))
        var activity = decoded.payload
        activity.userInfo = [:]
        return DecodedState(state: state, activity: activity, userInfoForm: decoded.userInfoForm, foundVersion: decoded.foundVersion)
    }

    /// The direct path, or nil where it hands over to the tree path
    /// (directPayloadHandOver): a refusal anywhere before the state (the tree
    /// path finds it again, with its own error), a userInfo that is not MP or
    /// that the tape does not take, a migration to run, a cost report to make.
    package func directDecode<State: Decodable>(_ type: State.Type, from data: Data,
                                                decoder: UserInfoDecoder) throws -> DecodedState<State>? {
        guard !reportsCostPerKeyPath, (try? validate()) != nil,
              case .activity(let record)? = try? Document.activityContainer(data, maxBytes: limits.maxInputBytes),
              let userInfoBytes = record.userInfo, var userInfo = UserInfoWireForm.directMPTape(userInfoBytes, limits: limits) else { return nil }
        let activity = ActivityPayload(
            activityType: record.activityType, title: record.title, webpageURL: record.webpageURL.map { UserInfoURL(relative: $0) },
            userInfo: [:], teamID: record.teamID, persistentID: record.persistentID,
            targetContentID: record.targetContentID, streamsEndpoint: record.streamsEndpoint)
        guard (try? activity.validate()) != nil else { return nil }
        // The version, as `PayloadVersioning.check` reads it from the userInfo:
        // accepted as it is, or handed over (a migration runs on the tree).
        var found: PayloadVersion?
        if let versioning {
            let entry: UserInfoDictionary = userInfo.topValue(forKey: versioning.key).map { [versioning.key: $0] } ?? [:]
            guard let version = try? versioning.version(of: entry), version.major <= versioning.current.major,
                  version >= versioning.current
                    || version.major == versioning.current.major && !versioning.migrations.contains(where: { $0.from == version }) else { return nil }
            found = version
        }
        // The URLs, translated in the order `URLTranslator.incoming` visits them.
        let translator = URLTranslator(policy: policy), layout = self.layout
        guard userInfo.translateURLs({ try? translator.incomingURL($0, layout, isBase: false) }) else { return nil }
        let state = try userInfo.decode(type, limits: limits, options: decoder)
        return DecodedState(state: state, activity: activity, userInfoForm: .mp, foundVersion: found)
    }
}
