public import PropertyList

/// What an app declares for Handoff in its Info.plist (Specs/payload.md,
/// "The receiving app", "Document activities"): the activity types it
/// continues (`NSUserActivityTypes`); its document types
/// (`CFBundleDocumentTypes`: content types, legacy extensions, and the
/// activity type of each, `NSUbiquitousDocumentUserActivityType`); and the
/// file name extensions of the content types it declares
/// (`UTExportedTypeDeclarations`, `UTImportedTypeDeclarations`). A payload
/// is delivered only to an app of the sender's team that declares its
/// activity type; a document activity's document must be of a document
/// type that declares it.
public struct AppDeclarations: Sendable, Hashable {
    /// `NSUserActivityTypes`, in order (empty when absent).
    public var activityTypes: [String]
    /// `CFBundleDocumentTypes`, in order.
    public var documentTypes: [DocumentType]
    /// The file name extensions of each content type the app declares,
    /// exported or imported (lower-cased).
    public var declaredExtensions: [String: [String]]

    /// One `CFBundleDocumentTypes` entry.
    public struct DocumentType: Sendable, Hashable {
        /// Its position in `CFBundleDocumentTypes`.
        public var index: Int
        /// `CFBundleTypeName`, when it has one.
        public var name: String?
        /// `LSItemContentTypes`.
        public var contentTypes: [String]
        /// `CFBundleTypeExtensions` (legacy; lower-cased).
        public var extensions: [String]
        /// `NSUbiquitousDocumentUserActivityType`, when it has one.
        public var activityType: String?
    }

    /// Reads the declarations of an Info.plist.
    ///
    /// - Throws: ``PayloadError`` ``ErrorCode/malformedDeclarations`` when one
    ///   of these keys has another shape than Xcode writes: the Info.plist a
    ///   dictionary; `NSUserActivityTypes`, `LSItemContentTypes`,
    ///   `CFBundleTypeExtensions` arrays of strings; `CFBundleDocumentTypes`
    ///   and the type declarations arrays of dictionaries;
    ///   `NSUbiquitousDocumentUserActivityType`, `CFBundleTypeName` and
    ///   `UTTypeIdentifier` strings; `UTTypeTagSpecification` a dictionary whose
    ///   `public.filename-extension` is a string or an array of strings.
    public init(infoPlist: PropertyListValue) throws(PayloadError) {
        // malformedDeclarations: the shapes Xcode writes.
        guard case .dictionary(let info) = infoPlist else {
            throw Self.malformed("the Info.plist", infoPlist, "a dictionary")
        }
        activityTypes = try Self.strings(info["NSUserActivityTypes"], "NSUserActivityTypes")
        documentTypes = []
        for (position, fields) in try Self.dictionaries(info["CFBundleDocumentTypes"], "CFBundleDocumentTypes").enumerated() {
            let place = "CFBundleDocumentTypes.\(position)"
            documentTypes.append(DocumentType(
                index: position,
                name: try Self.string(fields["CFBundleTypeName"], place + ".CFBundleTypeName"),
                contentTypes: try Self.strings(fields["LSItemContentTypes"], place + ".LSItemContentTypes"),
                extensions: try Self.strings(fields["CFBundleTypeExtensions"], place + ".CFBundleTypeExtensions").map(Self.folded),
                activityType: try Self.string(fields["NSUbiquitousDocumentUserActivityType"], place + ".NSUbiquitousDocumentUserActivityType")))
        }
        declaredExtensions = [:]
        for key in ["UTExportedTypeDeclarations", "UTImportedTypeDeclarations"] {
            for (position, fields) in try Self.dictionaries(info[key], key).enumerated() {
                let place = "\(key).\(position)"
                guard let identifier = try Self.string(fields["UTTypeIdentifier"], place + ".UTTypeIdentifier") else { continue }
                var extensions: [String] = []
                if let tags = fields["UTTypeTagSpecification"] {
                    guard case .dictionary(let specification) = tags else {
                        throw Self.malformed(place + ".UTTypeTagSpecification", tags, "a dictionary")
                    }
                    let tagPlace = place + ".UTTypeTagSpecification.public\\.filename-extension"
                    switch specification["public.filename-extension"] {
                    case .string(let single)?: extensions = [single]
                    case let other?: extensions = try Self.strings(other, tagPlace)
                    case nil: break
                    }
                }
                declaredExtensions[identifier, default: []].append(contentsOf: extensions.map(Self.folded))
            }
        }
    }

    /// Every activity type the app continues: its own, then its document types'.
    public var allActivityTypes: [String] { activityTypes + documentTypes.compactMap(\.activityType) }

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

    /// The document types a document with this file name extension is of:
    /// those listing it in `CFBundleTypeExtensions`, or listing a content
    /// type the app declares with it (compared case-insensitively).
    ///
    /// Linear in the declarations (Specs/payload.md, "Document activities",
    /// cost): the content types declaring the extension are gathered once,
    /// then each document type's content types are looked up in that set.
    public func documentTypes(forExtension pathExtension: String) -> [DocumentType] {
        let wanted = Self.folded(pathExtension)
        guard !wanted.isEmpty else { return [] }
        // One pass over the declared extensions, not one per content type listed.
        var declaring: Set<String> = []
        for (contentType, extensions) in declaredExtensions where extensions.contains(wanted) {
            declaring.insert(contentType)
        }
        return documentTypes.filter { type in
            type.extensions.contains(wanted) || (!declaring.isEmpty && type.contentTypes.contains(where: declaring.contains))
        }
    }

    /// Refuses a document activity whose document the app would not open as
    /// a document of the activity's type.
    ///
    /// - Throws: ``PayloadError`` ``ErrorCode/undeclaredDocumentType`` when
    ///   no document type matches the document's extension;
    ///   ``ErrorCode/documentActivityMismatch`` when those that match declare
    ///   another activity type, or none.
    public func accept(document: DocumentActivity) throws(PayloadError) {
        let shown = document.pathExtension.isEmpty ? "no extension" : "the extension \".\(document.pathExtension)\""
        let matching = documentTypes(forExtension: document.pathExtension)
        // undeclaredDocumentType: Launch Services finds no document type for the file.
        guard !matching.isEmpty else {
            throw PayloadError(.undeclaredDocumentType, "the document has \(shown), which no document type of the app declares (CFBundleTypeExtensions, or LSItemContentTypes declared with it)")
        }
        // documentActivityMismatch: the document's type continues another activity, or none.
        guard matching.contains(where: { $0.activityType.map { $0.utf8.elementsEqual(document.activityType.utf8) } == true }) else {
            let declared = Set(matching.compactMap(\.activityType)).sorted()
            let names = matching.map { $0.name.map { "\"\($0)\"" } ?? "CFBundleDocumentTypes.\($0.index)" }.joined(separator: ", ")
            throw PayloadError(.documentActivityMismatch, "the document (\(shown)) is of the document type \(names), which declares "
                               + (declared.isEmpty ? "no activity type" : declared.map { "\"\($0)\"" }.joined(separator: ", "))
                               + ", not \"\(document.activityType)\"")
        }
    }

    /// What `plistkit lint --handoff` finds wrong with the declarations, in
    /// order: ``ErrorCode/missingActivityTypes`` (nothing declared),
    /// ``ErrorCode/invalidActivityType`` (a type that is empty or not
    /// reverse-DNS characters), ``ErrorCode/duplicateActivityType`` (a type
    /// twice in `NSUserActivityTypes`; document types may share one, as Apple
    /// allows), ``ErrorCode/undeclaredContentType`` (a content type of a
    /// document type with an activity type that neither the app nor the
    /// system declares). Empty when they are fine.
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
        for document in documentTypes {
            guard let activityType = document.activityType else { continue }
            // invalidActivityType
            if !ActivityPayload.isValidActivityType(activityType) {
                found.append(PayloadError(.invalidActivityType,
                                          "CFBundleDocumentTypes.\(document.index).NSUbiquitousDocumentUserActivityType, \"\(activityType)\", is not reverse-DNS characters"))
            }
            // undeclaredContentType: the app's or the system's (public.*, com.apple.*).
            for contentType in document.contentTypes where declaredExtensions[contentType] == nil && !Self.isSystemType(contentType) {
                found.append(PayloadError(.undeclaredContentType,
                                          "CFBundleDocumentTypes.\(document.index).LSItemContentTypes names \"\(contentType)\", which neither UTExportedTypeDeclarations nor UTImportedTypeDeclarations declares"))
            }
        }
        return found
    }

    /// A type the system declares: Apple's own identifiers.
    static func isSystemType(_ identifier: String) -> Bool {
        identifier.hasPrefix("public.") || identifier.hasPrefix("com.apple.")
    }

    // MARK: Reading the shapes

    private static func folded(_ text: String) -> String { text.lowercased() }

    private static func malformed(_ place: String, _ value: PropertyListValue, _ expected: String) -> PayloadError {
        PayloadError(.malformedDeclarations, "\(place) is \(English.article(value.typeName)) \(value.typeName), not \(expected)")
    }

    private static func string(_ value: PropertyListValue?, _ place: String) throws(PayloadError) -> String? {
        guard let value else { return nil }
        guard case .string(let text) = value else { throw malformed(place, value, "a string") }
        return text
    }

    private static func strings(_ value: PropertyListValue?, _ place: String) throws(PayloadError) -> [String] {
        try members(of: value, place, "an array of strings", each: "a string") { member in
            if case .string(let text) = member { text } else { nil }
        }
    }

    private static func dictionaries(_ value: PropertyListValue?, _ place: String) throws(PayloadError) -> [PropertyListDictionary] {
        try members(of: value, place, "an array of dictionaries", each: "a dictionary") { member in
            if case .dictionary(let fields) = member { fields } else { nil }
        }
    }

    /// The members of the array at `place` (none when it is absent), each
    /// one taken by `take`; `expected` and `each` name what the array and a
    /// member must be when it or one of them is refused.
    private static func members<Member>(
        of value: PropertyListValue?, _ place: String, _ expected: String, each: String,
        _ take: (PropertyListValue) -> Member?
    ) throws(PayloadError) -> [Member] {
        guard let value else { return [] }
        guard case .array(let members) = value else { throw malformed(place, value, expected) }
        var taken: [Member] = []
        for (position, member) in members.enumerated() {
            guard let accepted = take(member) else { throw malformed("\(place).\(position)", member, each) }
            taken.append(accepted)
        }
        return taken
    }
}
