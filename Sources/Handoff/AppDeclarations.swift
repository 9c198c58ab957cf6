public import PropertyList

/// What an app declares for Handoff in its Info.plist (Specs/payload.md,
/// "The receiving app"): the activity types it continues
/// (`NSUserActivityTypes`) and, for a document-based app, the activity type
/// of each document type (`CFBundleDocumentTypes`, each entry's
/// `NSUbiquitousDocumentUserActivityType`). A payload is delivered only to an
/// app of the sender's team that declares its activity type.
public struct AppDeclarations: Sendable, Hashable {
    /// `NSUserActivityTypes`, in order (empty when absent).
    public var activityTypes: [String]
    /// The document types that declare an activity type, in order.
    public var documentTypes: [DocumentType]

    /// One `CFBundleDocumentTypes` entry with an activity type.
    public struct DocumentType: Sendable, Hashable {
        /// Its position in `CFBundleDocumentTypes`.
        public var index: Int
        /// `CFBundleTypeName`, when it has one.
        public var name: String?
        /// `NSUbiquitousDocumentUserActivityType`.
        public var activityType: String
    }

    /// Reads the declarations of an Info.plist.
    ///
    /// - Throws: ``PayloadError`` ``ErrorCode/malformedDeclarations`` when the
    ///   Info.plist is not a dictionary, `NSUserActivityTypes` is not an array
    ///   of strings, `CFBundleDocumentTypes` not an array of dictionaries, or an
    ///   entry's `NSUbiquitousDocumentUserActivityType` not a string.
    public init(infoPlist: PropertyListValue) throws(PayloadError) {
        // malformedDeclarations: the shapes Xcode writes.
        guard case .dictionary(let info) = infoPlist else {
            throw PayloadError(.malformedDeclarations, "the Info.plist is \(Self.article(infoPlist.typeName)), not a dictionary")
        }
        activityTypes = []
        if let declared = info["NSUserActivityTypes"] {
            guard case .array(let members) = declared else {
                throw PayloadError(.malformedDeclarations, "NSUserActivityTypes is \(Self.article(declared.typeName)), not an array of strings")
            }
            for (position, member) in members.enumerated() {
                guard case .string(let type) = member else {
                    throw PayloadError(.malformedDeclarations, "NSUserActivityTypes.\(position) is \(Self.article(member.typeName)), not a string")
                }
                activityTypes.append(type)
            }
        }
        documentTypes = []
        if let declared = info["CFBundleDocumentTypes"] {
            guard case .array(let entries) = declared else {
                throw PayloadError(.malformedDeclarations, "CFBundleDocumentTypes is \(Self.article(declared.typeName)), not an array of dictionaries")
            }
            for (position, entry) in entries.enumerated() {
                guard case .dictionary(let fields) = entry else {
                    throw PayloadError(.malformedDeclarations, "CFBundleDocumentTypes.\(position) is \(Self.article(entry.typeName)), not a dictionary")
                }
                guard let type = fields["NSUbiquitousDocumentUserActivityType"] else { continue }
                guard case .string(let activityType) = type else {
                    throw PayloadError(.malformedDeclarations,
                                       "CFBundleDocumentTypes.\(position).NSUbiquitousDocumentUserActivityType is \(Self.article(type.typeName)), not a string")
                }
                documentTypes.append(DocumentType(index: position, name: fields["CFBundleTypeName"]?.stringValue, activityType: activityType))
            }
        }
    }

    /// Every activity type the app continues: its own, then its document types'.
    public var allActivityTypes: [String] { activityTypes + documentTypes.map(\.activityType) }

    /// Refuses an activity the app would not be handed.
    ///
    /// - Throws: ``PayloadError`` ``ErrorCode/undeclaredActivityType`` when
    ///   `activityType` is in neither `NSUserActivityTypes` nor a document
    ///   type; ``ErrorCode/teamMismatch`` when `teamID` is given and differs
    ///   from the sender's.
    public func accept(activityType: String, senderTeamID: String, teamID: String?) throws(PayloadError) {
        // undeclaredActivityType: Handoff delivers only declared types (compared exactly, as strings).
        guard allActivityTypes.contains(where: { $0.utf8.elementsEqual(activityType.utf8) }) else {
            let declared = allActivityTypes.isEmpty ? "none" : allActivityTypes.map { "\"\($0)\"" }.joined(separator: ", ")
            throw PayloadError(.undeclaredActivityType, "the activity type \"\(activityType)\" is not declared by the app (NSUserActivityTypes and document types declare: \(declared))")
        }
        // teamMismatch: Handoff delivers only between apps of one team.
        if let teamID, !teamID.utf8.elementsEqual(senderTeamID.utf8) {
            throw PayloadError(.teamMismatch, "the sender's team ID is \"\(senderTeamID)\", not \"\(teamID)\"")
        }
    }

    /// What `plistkit lint --handoff` finds wrong with the declarations, in
    /// order: ``ErrorCode/missingActivityTypes`` (nothing declared),
    /// ``ErrorCode/invalidActivityType`` (a type that is empty or not
    /// reverse-DNS characters), ``ErrorCode/duplicateActivityType`` (a type
    /// twice in `NSUserActivityTypes`; document types may share one, as Apple
    /// allows). Empty when they are fine.
    public func problems() -> [PayloadError] {
        var found: [PayloadError] = []
        // missingActivityTypes: an app that adopts Handoff declares at least one type.
        if allActivityTypes.isEmpty {
            found.append(PayloadError(.missingActivityTypes, "the Info.plist declares no activity type (NSUserActivityTypes, or a document type's NSUbiquitousDocumentUserActivityType)"))
        }
        var seen: Set<[UInt8]> = []
        for (position, type) in activityTypes.enumerated() {
            // invalidActivityType: reverse-DNS characters, as for a payload's activityType.
            if !ActivityPayload.isValidActivityType(type) {
                found.append(PayloadError(.invalidActivityType, "NSUserActivityTypes.\(position), \"\(type)\", is not reverse-DNS characters"))
            }
            // duplicateActivityType
            if !seen.insert(Array(type.utf8)).inserted {
                found.append(PayloadError(.duplicateActivityType, "NSUserActivityTypes.\(position), \"\(type)\", is declared twice"))
            }
        }
        for document in documentTypes where !ActivityPayload.isValidActivityType(document.activityType) {
            found.append(PayloadError(.invalidActivityType,
                                      "CFBundleDocumentTypes.\(document.index).NSUbiquitousDocumentUserActivityType, \"\(document.activityType)\", is not reverse-DNS characters"))
        }
        return found
    }

    private static func article(_ name: String) -> String { (name.first.map { "aeiou".contains($0) } == true ? "an " : "a ") + name }
}
