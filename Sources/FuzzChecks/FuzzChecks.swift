import FoundationEssentials
public import PropertyList
import PropertyListXML
import KeyedArchive
import Handoff
import UserInfo
import TypedJSON
import DocumentFormats
import MPUserInfo
import PropertyListOpenStep

/// The entry points the fuzz targets drive, by the name used in `Fuzz/`,
/// `Corpus/<name>/` and `Corpus/regressions/<name>-*`.
@_spi(Fuzzing) public enum FuzzEntryPoint: String, Sendable, CaseIterable {
    case binaryDecode = "binary-decode"
    case xmlDecode = "xml-decode"
    case keyedDecode = "keyed-decode"
    case payloadDecode = "payload-decode"
    case typedJSONRead = "typed-json-read"
    case mpDecode = "mp-decode"
    case containerDecode = "container-decode"
    case openStepRead = "openstep-read"
    case errorPacket = "error-packet"
    case diff = "diff"
}

/// A broken round trip: a value that decoded but did not survive re-encoding.
/// A fuzz target traps on it; the regression tests report it.
@_spi(Fuzzing) public struct FuzzFinding: Error, Sendable, CustomStringConvertible {
    @_spi(Fuzzing) public let entryPoint: FuzzEntryPoint
    @_spi(Fuzzing) public let message: String
    @_spi(Fuzzing) public var description: String { "\(entryPoint.rawValue): \(message)" }
}

/// Typed JSON of a decoded value: what a reader accepted within the default
/// limits is written within them, or that is a finding.
func typedJSON(_ value: PropertyListValue, pretty: Bool = false, _ entryPoint: FuzzEntryPoint) throws(FuzzFinding) -> Data {
    do { return try TypedJSONWriter(pretty: pretty).write(value) } catch {
        throw FuzzFinding(entryPoint: entryPoint, message: "typed JSON refused a decoded value: \(error)")
    }
}

/// ``typedJSON(_:pretty:_:)-(PropertyListValue,_,_)`` for a userInfo value.
func typedJSON(_ value: UserInfoValue, pretty: Bool = false, _ entryPoint: FuzzEntryPoint) throws(FuzzFinding) -> Data {
    do { return try TypedJSONWriter(pretty: pretty).write(value) } catch {
        throw FuzzFinding(entryPoint: entryPoint, message: "typed JSON refused a decoded value: \(error)")
    }
}

/// The round-trip oracles shared by the fuzz targets (`Fuzz/`) and the
/// regression replay in the unit tests, so both check exactly the same thing.
/// See `Specs/fuzzing.md`.
///
/// Each oracle takes raw fuzzer input: the first byte is the options byte
/// (limits and, for payloads, layout and versioning), the rest is the
/// document. A decode error is a correct outcome; a value that decoded must
/// re-encode in every format that can carry it and decode back to an equal
/// value, else the oracle throws ``FuzzFinding``.
@_spi(Fuzzing) public enum FuzzChecks {
    /// Runs the oracle of `entryPoint` on `input`.
    @_spi(Fuzzing) public static func check(_ entryPoint: FuzzEntryPoint, _ input: [UInt8]) throws(FuzzFinding) {
        guard let options = input.first else { return }
        let document = Data(input.dropFirst())
        let limits = FuzzOptions.limits(options)
        let budget = limits.expansionBudget(inputBytes: document.count)
        switch entryPoint {
        case .binaryDecode:
            guard let value = try? BinaryPropertyListReader(limits: limits).read(document) else { return }
            let size = try CostOracle(entryPoint: entryPoint).expandedSize(of: value, budget: budget)
            try PropertyListRoundTrip(entryPoint: entryPoint, expandedSize: size).check(value)
            // The literal writers, on a quarter of the values (Specs/fuzzing.md, "Output oracles").
            if document.count & 3 == 0 { try LiteralOracle(entryPoint: entryPoint).check(value) }
        case .xmlDecode:
            guard let value = try? XMLPropertyListReader(limits: limits).read(document) else { return }
            let size = try CostOracle(entryPoint: entryPoint).expandedSize(of: value, budget: budget)
            try PropertyListRoundTrip(entryPoint: entryPoint, expandedSize: size).check(value)
            if document.count & 3 == 0 { try LiteralOracle(entryPoint: entryPoint).check(value) }
        case .keyedDecode:
            try GraphAgreement(limits: limits).check(document)
            guard let value = try? UserInfoCodec(limits: limits).decode(document) else { return }
            let size = try CostOracle(entryPoint: entryPoint).expandedSize(of: value, budget: budget)
            try UserInfoRoundTrip(entryPoint: entryPoint, expandedSize: size).check(value)
        case .typedJSONRead:
            if let value = try? TypedJSONReader(limits: limits).readUserInfo(document) {
                let size = try CostOracle(entryPoint: entryPoint).expandedSize(of: value, budget: budget)
                try UserInfoRoundTrip(entryPoint: entryPoint, expandedSize: size).check(value)
            }
            if let plist = try? TypedJSONReader(limits: limits).readPropertyList(document) {
                let size = try CostOracle(entryPoint: entryPoint).expandedSize(of: plist, budget: budget)
                try PropertyListRoundTrip(entryPoint: entryPoint, expandedSize: size).check(plist)
            }
        case .payloadDecode:
            try PayloadRoundTrip(options: options).check(document)
        case .mpDecode:
            try DirectDecodeOracle(limits: limits).check([UInt8](document))
            guard let userInfo = try? MPUserInfoReader(limits: limits).read(document) else { return }
            let size = try CostOracle(entryPoint: entryPoint).expandedSize(of: .dictionary(userInfo), budget: budget)
            try MPRoundTrip(expandedSize: size).check(userInfo)
            try WireOutputOracle(entryPoint: entryPoint).check([UInt8](document), expandedSize: size)
        case .containerDecode:
            try ContainerRoundTrip(limits: limits).check(document)
        case .errorPacket:
            // A keyed archive, framed as an error packet (Specs/fuzzing.md, "error-packet and diff").
            try ErrorPacketOracle(limits: limits).check([UInt8](document))
        case .diff:
            try DiffComparisonOracle(limits: limits).check(document, options: options)
        case .openStepRead:
            // An OpenStep text that reads must survive every format that can carry it.
            guard let value = try? OpenStepReader(limits: limits).read(document) else { return }
            let size = try CostOracle(entryPoint: entryPoint).expandedSize(of: value, budget: budget)
            try PropertyListRoundTrip(entryPoint: entryPoint, expandedSize: size).check(value)
            // And through OpenStep itself: every value the reader makes, the writer writes, and it reads back.
            let text: Data
            do { text = try OpenStepWriter().write(value) } catch {
                if FuzzChecks.refusedAsUnreadable(error, expandedSize: size) { return }
                throw FuzzFinding(entryPoint: entryPoint, message: "a value read from OpenStep does not write as OpenStep: \(error)")
            }
            try CostOracle(entryPoint: entryPoint).checkOutput(text.count, "OpenStep", expandedSize: size)
            guard (try? OpenStepReader().read(text)) == value else {
                throw FuzzFinding(entryPoint: entryPoint, message: "OpenStep round trip changed the value")
            }
            // A project also through Xcode's layout (comments regenerated, then dropped by the reader).
            if let project = try? OpenStepWriter(style: .xcodeProject).write(value) {
                guard (try? OpenStepReader().read(project)) == value else {
                    throw FuzzFinding(entryPoint: entryPoint, message: "Xcode-layout round trip changed the value")
                }
                guard (try? OpenStepWriter(style: .xcodeProject).write(OpenStepReader().read(project))) == project else {
                    throw FuzzFinding(entryPoint: entryPoint, message: "Xcode-layout writing is not a fixed point of reading")
                }
            }
        }
        if entryPoint == .openStepRead { try FormatLayerRoundTrip(limits: limits, budget: budget).check(document) }
        // Every document a format-layer verb edits: binary, XML and the text formats.
        if [.binaryDecode, .xmlDecode, .openStepRead].contains(entryPoint) {
            try EditOracle(entryPoint: entryPoint, limits: limits).check(document)
        }
    }
}

/// The format layer as an edit uses it (Specs/plistkit.md, "Input formats"): a
/// document that reads, in whichever format the first character says and in
/// whichever encoding, writes back in that format and encoding (a project
/// under the name its text records) within the cost bound, and reads back to
/// the same value, as the same format and encoding.
struct FormatLayerRoundTrip {
    let limits: PropertyListLimits
    let budget: Int

    func check(_ document: Data) throws(FuzzFinding) {
        let bytes = [UInt8](document)
        guard let reading = try? Document.read(document: bytes, limits: limits) else { return }
        let entryPoint = FuzzEntryPoint.openStepRead
        let size = try CostOracle(entryPoint: entryPoint).expandedSize(of: reading.value, budget: budget)
        let written: [UInt8]
        do {
            written = try Document.writeBytes(reading.value, as: reading.format, keyOrder: reading.format == .strings ? .insertion : .sorted,
                                              projectName: XcodeProject.recordedName(in: bytes) ?? "", textEncoding: reading.textEncoding ?? .utf8)
        } catch {
            // A braceless .strings file may hold other values than strings (CF reads them); a .strings file cannot be written so.
            if error.code == .unrepresentableValue, reading.format == .strings { return }
            if FuzzChecks.refusedAsUnreadable(error, expandedSize: size) { return }
            throw FuzzFinding(entryPoint: entryPoint, message: "a \(reading.format) document does not write back as one: \(error)")
        }
        try CostOracle(entryPoint: entryPoint).checkOutput(written.count, "\(reading.format)", expandedSize: size)
        // A .strings file written over itself, unchanged, is itself, byte for byte
        // (Specs/openstep.md, "Editing a `.strings` file").
        if reading.format == .strings {
            let same = try? Document.writeBytes(reading.value, as: .strings, keyOrder: .insertion, textEncoding: reading.textEncoding ?? .utf8, over: reading)
            guard same == bytes else {
                throw FuzzFinding(entryPoint: entryPoint, message: "a .strings file written over itself unchanged is not itself")
            }
        }
        guard let back = try? Document.read(document: written, limits: .default), back.value == reading.value else {
            throw FuzzFinding(entryPoint: entryPoint, message: "a \(reading.format) document written back reads another value")
        }
        // JSON and OpenStep share `{}` and quoted strings, which read alike in both:
        // such a JSON document written back reads as OpenStep, to the same value.
        if Set([back.format, reading.format]) == [.json, .openStep] { return }
        guard back.format == reading.format, back.textEncoding == reading.textEncoding else {
            throw FuzzFinding(entryPoint: entryPoint, message: "a \(reading.format) document written back reads as \(back.format), \(String(describing: back.textEncoding))")
        }
    }
}

extension FuzzChecks {
    /// What the literal oracle's reader makes of Swift source (nil for anything
    /// outside the subset ``LiteralSource`` writes): for the tests that show the
    /// oracle is not vacuous.
    @_spi(Fuzzing) public static func swiftLiteralValue(_ text: String) -> PropertyListValue? {
        var reader = SwiftLiteralReader(Array(text.unicodeScalars))
        return reader.document()
    }

    /// The property-list round trip alone, for a value the caller made: what the
    /// binary and XML oracles run after a successful decode.
    @_spi(Fuzzing) public static func checkRoundTrip(of value: PropertyListValue) throws(FuzzFinding) {
        try PropertyListRoundTrip(entryPoint: .binaryDecode).check(value)
    }

    /// True for the refusals that only say a profile or format cannot carry a
    /// value: null, set, UUID and URL in the plain profile, a top-level
    /// `$archiver` key in the plain profile (it would read back as an archive),
    /// the reserved string `$null`, characters XML 1.0 cannot hold.
    /// A writer's refusal of a value whose bytes would not read back with the
    /// same limits (``ErrorCode/expansionLimitExceeded``: Specs/value-model.md,
    /// "Writer limits"): right only for a value past the budget's floor, which
    /// every input may expand to (`expandedSize`, the oracle's own measure; nil: unknown).
    static func refusedAsUnreadable(_ error: any Error, expandedSize: Int?) -> Bool {
        let code = (error as? PropertyListError)?.code ?? (error as? UserInfoError).map { $0.underlying?.code ?? $0.code }
        guard code == .expansionLimitExceeded else { return false }
        return (expandedSize ?? .max) > PropertyListLimits.expansionFloor
    }

    static func cannotCarry(_ error: UserInfoError) -> Bool {
        switch error.code {
        case .notPlistNative, .reservedString, .reservedKey: return true
        case .propertyList: return error.underlying?.code == .unrepresentableValue
        default: return false
        }
    }
}

/// How the options byte maps to decode settings.
///
/// - bits 0–1: limits — default, payload, tight, minimal;
/// - bits 2–3 (payloads): receiver layout — iOS, macOS, custom root, none;
/// - bit 4 (payloads): check a versioning key; bit 5: assume 1.0 when it is missing.
@_spi(Fuzzing) public enum FuzzOptions {
    /// The decode limits an options byte selects.
    @_spi(Fuzzing) public static func limits(_ options: UInt8) -> PropertyListLimits {
        switch options & 3 {
        case 0: return .default
        case 1: return .payload
        case 2: return PropertyListLimits(maxInputBytes: 1 << 16, maxDepth: 16, maxObjects: 256, maxCollectionCount: 64,
                                          maxStringBytes: 256, maxDataBytes: 256, maxExpandedBytes: 1 << 16)
        default: return PropertyListLimits(maxInputBytes: 512, maxDepth: 3, maxObjects: 16, maxCollectionCount: 8,
                                           maxStringBytes: 32, maxDataBytes: 32, maxExpandedBytes: 1 << 10)
        }
    }

    static let containers: Set<String> = ["iCloud.com.example.App", "com.apple.CloudDocs"]

    static func layout(_ options: UInt8) -> ContainerLayout? {
        switch (options >> 2) & 3 {
        case 0: return .iOS(containers: containers)
        case 1: return .macOS(home: "/Users/ada", containers: containers)
        case 2: return ContainerLayout(root: "/srv/containers", containers: containers)
        default: return nil
        }
    }

    static func versioning(_ options: UInt8) -> PayloadVersioning? {
        guard options & 0x10 != 0 else { return nil }
        var versioning = PayloadVersioning(key: "com.example.app.version", current: PayloadVersion(2, 1),
                                           assumedVersionWhenMissing: options & 0x20 != 0 ? PayloadVersion(1, 0) : nil)
        versioning.migrations.append(PayloadMigration("mark migrated", from: PayloadVersion(1, 0), to: PayloadVersion(2, 0)) { userInfo in
            var migrated = userInfo
            migrated["migrated"] = .number(.bool(true))
            return migrated
        })
        return versioning
    }
}

/// The cost oracle (Specs/fuzzing.md, "Entry points and oracles"; Specs/value-model.md, "Expanded
/// size"): what a reader accepted weighs at most its budget, and every output
/// written from it at most a fixed multiple of that, so a blow-up is a finding,
/// not a slow run. The expanded size is computed here from the definition,
/// apart from the readers' own counting, and stops at the budget.
struct CostOracle {
    let entryPoint: FuzzEntryPoint
    /// Every output of a value is at most this many times its expanded size,
    /// plus ``outputSlack`` (headers, a keyed archive's class entries). Measured
    /// on every corpus: at most 6 for property lists in every format; keyed
    /// archives in XML spell each object as a dictionary with a `CF$UID`
    /// reference, about 20 times a small scalar's expanded size.
    static let outputFactor = 32
    static let outputSlack = 4096

    func expandedSize(of value: PropertyListValue, budget: Int) throws(FuzzFinding) -> Int {
        var total = 0
        guard Self.add(value, depth: 0, to: &total, budget: budget) else {
            throw FuzzFinding(entryPoint: entryPoint, message: "a decoded value expands past its budget of \(budget) bytes")
        }
        return total
    }

    func expandedSize(of value: UserInfoValue, budget: Int) throws(FuzzFinding) -> Int {
        var total = 0
        guard Self.add(value, depth: 0, to: &total, budget: budget) else {
            throw FuzzFinding(entryPoint: entryPoint, message: "a decoded userInfo value expands past its budget of \(budget) bytes")
        }
        return total
    }

    func checkOutput(_ bytes: Int, _ format: String, expandedSize: Int) throws(FuzzFinding) {
        guard bytes <= Self.outputFactor * expandedSize + Self.outputSlack else {
            throw FuzzFinding(entryPoint: entryPoint, message: "\(format) output of \(bytes) bytes for a value of expanded size \(expandedSize)")
        }
    }

    private static func add(_ value: PropertyListValue, depth: Int, to total: inout Int, budget: Int) -> Bool {
        total += 8 + depth
        switch value {
        case .string(let string): total += string.utf8.count
        case .data(let data): total += data.count
        case .array(let elements):
            for element in elements where !add(element, depth: depth + 1, to: &total, budget: budget) { return false }
        case .dictionary(let dictionary):
            for (key, member) in dictionary {
                total += 8 + depth + 1 + key.utf8.count
                if !add(member, depth: depth + 1, to: &total, budget: budget) { return false }
            }
        default: break
        }
        return total <= budget
    }

    private static func add(_ value: UserInfoValue, depth: Int, to total: inout Int, budget: Int) -> Bool {
        total += 8 + depth
        switch value {
        case .string(let string): total += string.utf8.count
        case .data(let data): total += data.count
        case .uuid: total += 16
        case .url(let url):
            total += url.relative.utf8.count
            if let base = url.base, !add(.url(base), depth: depth + 1, to: &total, budget: budget) { return false }
        case .array(let elements):
            for element in elements where !add(element, depth: depth + 1, to: &total, budget: budget) { return false }
        case .set(let set):
            for member in set.members where !add(member, depth: depth + 1, to: &total, budget: budget) { return false }
        case .dictionary(let dictionary):
            for (key, member) in dictionary {
                total += 8 + depth + 1 + key.utf8.count
                if !add(member, depth: depth + 1, to: &total, budget: budget) { return false }
            }
        default: break
        }
        return total <= budget
    }
}

/// Property-list values through binary, XML and typed JSON.
struct PropertyListRoundTrip {
    let entryPoint: FuzzEntryPoint
    /// The value's expanded size, which bounds every output (``CostOracle``); nil skips that check.
    var expandedSize: Int?

    func check(_ value: PropertyListValue) throws(FuzzFinding) {
        // Binary carries every value exactly, and writes the same bytes again.
        let binary: Data
        do { binary = try BinaryPropertyListWriter().write(value) } catch {
            // Refused because the bytes would not read back within the budget:
            // right only when the bytes written without that check are so few.
            guard error.code == .expansionLimitExceeded, let expandedSize,
                  let unchecked = try? BinaryPropertyListWriter(limits: WriterLimits(expansionFactor: 0)).write(value),
                  expandedSize > WriterLimits.default.expansionBudget(outputBytes: unchecked.count) else {
                throw FuzzFinding(entryPoint: entryPoint, message: "binary writer refused a decoded value: \(error)")
            }
            return
        }
        try checkOutput(binary.count, "binary")
        let fromBinary = try decode("binary", binary) { try BinaryPropertyListReader().read($0) }
        try expect(fromBinary == value, "binary round trip changed the value")
        let again = try? BinaryPropertyListWriter().write(fromBinary)
        try expect(again == binary, "binary writer is not deterministic")

        // XML may refuse what it cannot carry (NUL, lone surrogates, a one-key CF$UID
        // dictionary, null), but only with unrepresentableValue; dates lose fractions.
        do {
            let xml = try XMLPropertyListWriter().write(value)
            try checkOutput(xml.count, "XML")
            let fromXML = try decode("XML", xml) { try XMLPropertyListReader().read($0) }
            try expect(fromXML == XMLImage.of(value), "XML round trip changed the value")
        } catch let error as PropertyListError {
            try expect(error.code == .unrepresentableValue, "XML writer failed with \(error)")
        } catch let finding as FuzzFinding {
            throw finding
        } catch {
            throw FuzzFinding(entryPoint: entryPoint, message: "unexpected error \(error)")
        }

        // Typed JSON carries every property-list value exactly, NaN payloads aside.
        let json = try typedJSON(value, entryPoint)
        try checkOutput(json.count, "typed JSON")
        try checkOutput(try typedJSON(value, pretty: true, entryPoint).count, "pretty typed JSON")
        try checkOutput(value.description.utf8.count, "printed tree")
        let fromJSON = try decode("typed JSON", json) { try TypedJSONReader().readPropertyList($0) }
        try expect(fromJSON == XMLImage.of(value, keepingDates: true), "typed JSON round trip changed the value")
    }

    private func checkOutput(_ bytes: Int, _ format: String) throws(FuzzFinding) {
        guard let expandedSize else { return }
        try CostOracle(entryPoint: entryPoint).checkOutput(bytes, format, expandedSize: expandedSize)
    }

    private func decode(_ format: String, _ data: Data,
                        _ read: (Data) throws -> PropertyListValue) throws(FuzzFinding) -> PropertyListValue {
        do { return try read(data) } catch {
            throw FuzzFinding(entryPoint: entryPoint, message: "our \(format) output does not read back: \(error)")
        }
    }

    private func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws(FuzzFinding) {
        if !condition { throw FuzzFinding(entryPoint: entryPoint, message: message()) }
    }
}

/// What a text round trip keeps of a value: every NaN as the one NaN that `nan`
/// reads as (XML and typed JSON); in XML, dates to the whole second below, and
/// the date -0.0 as 0.0 (found by fuzzing: `binary-decode-negative-zero-date-in-xml`).
enum XMLImage {
    static func of(_ value: PropertyListValue, keepingDates: Bool = false) -> PropertyListValue {
        switch value {
        case .real(let real) where real.isNaN: return .real(.nan)
        case .date(let date):
            // Both text forms spell the instant −0.0 as 2001-01-01T00:00:00Z.
            let seconds = date.timeIntervalSinceReferenceDate
            return .date(Date(timeIntervalSinceReferenceDate: (keepingDates ? seconds : seconds.rounded(.down)) + 0.0))
        case .array(let array): return .array(array.map { of($0, keepingDates: keepingDates) })
        case .dictionary(let dictionary): return .dictionary(dictionary.mapValues { of($0, keepingDates: keepingDates) })
        default: return value
        }
    }
}

/// userInfo values through keyed archives (binary and XML), the plain profile
/// where it applies, and typed JSON.
struct UserInfoRoundTrip {
    let entryPoint: FuzzEntryPoint
    /// The value's expanded size, which bounds every output (``CostOracle``); nil skips that check.
    var expandedSize: Int?

    func check(_ value: UserInfoValue) throws(FuzzFinding) {
        try DirectArchiveOracle(entryPoint: entryPoint).check(value)
        for format in [DocumentFormat.binary, .xml] {
            for profile in UserInfoProfile.allCases {
                let encoded: Data
                do {
                    encoded = try UserInfoCodec().encode(value, profile: profile, format: format)
                } catch {
                    try expect(FuzzChecks.cannotCarry(error) || FuzzChecks.refusedAsUnreadable(error, expandedSize: expandedSize),
                               "\(profile) \(format) encoder failed with \(error)")
                    continue
                }
                if let expandedSize {
                    try CostOracle(entryPoint: entryPoint).checkOutput(encoded.count, "\(profile) \(format)", expandedSize: expandedSize)
                }
                let decoded: (value: UserInfoValue, profile: UserInfoProfile)
                do { decoded = try UserInfoCodec().decodeDetectingProfile(encoded) } catch {
                    throw FuzzFinding(entryPoint: entryPoint, message: "our \(profile) \(format) output does not read back: \(error)")
                }
                let expected = format == .xml && profile == .plain ? UserInfoXMLImage.of(value) : UserInfoXMLImage.nan(value)
                try expect(decoded.profile == profile, "\(profile) \(format) output read back as \(decoded.profile)")
                try expect(UserInfoXMLImage.nan(decoded.value) == expected, "\(profile) \(format) round trip changed the value")
            }
        }
        let json = try typedJSON(value, entryPoint)
        if let expandedSize {
            let oracle = CostOracle(entryPoint: entryPoint)
            try oracle.checkOutput(json.count, "typed JSON", expandedSize: expandedSize)
            try oracle.checkOutput(try typedJSON(value, pretty: true, entryPoint).count, "pretty typed JSON", expandedSize: expandedSize)
            try oracle.checkOutput(value.description.utf8.count, "printed tree", expandedSize: expandedSize)
        }
        do {
            let fromJSON = try TypedJSONReader().readUserInfo(json)
            try expect(UserInfoXMLImage.typedJSON(fromJSON) == UserInfoXMLImage.typedJSON(value), "typed JSON round trip changed the value")
            try DiffOracle(entryPoint: entryPoint).check(UserInfoXMLImage.typedJSON(value), UserInfoXMLImage.typedJSON(fromJSON))
        } catch let finding as FuzzFinding {
            throw finding
        } catch {
            throw FuzzFinding(entryPoint: entryPoint, message: "our typed JSON does not read back: \(error)")
        }
    }

    private func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws(FuzzFinding) {
        if !condition { throw FuzzFinding(entryPoint: entryPoint, message: message()) }
    }
}

/// The binary keyed archive written straight into the binary object table
/// against the archive's property-list tree written by the binary writer
/// (Specs/keyed-archive.md, "Writer", `directBinaryArchive`): the same bytes,
/// or the same refusal (code, key path and reason).
struct DirectArchiveOracle {
    let entryPoint: FuzzEntryPoint

    func check(_ value: UserInfoValue) throws(FuzzFinding) {
        let writer = KeyedArchiveWriter()
        let direct = Result { () throws(UserInfoError) in try writer.writeBytes(value) }
        let tree = Result { () throws(UserInfoError) in try writer.writeBytesThroughTree(value) }
        switch (direct, tree) {
        case (.success(let directBytes), .success(let treeBytes)) where directBytes == treeBytes:
            return
        case (.failure(let directError), .failure(let treeError))
            where directError.code == treeError.code && directError.keyPath == treeError.keyPath && directError.reason == treeError.reason:
            return
        default:
            throw FuzzFinding(entryPoint: entryPoint, message: "the direct keyed archive (\(direct.map(\.count))) differs from the tree path's (\(tree.map(\.count)))")
        }
    }
}

/// `plistkit diff`'s comparison (Specs/plistkit.md, "Diff") on what a
/// round trip gave back: no difference between a value and its equal copy,
/// exactly one (`type`, at the top) against a value of another type, and
/// every line it prints escaped (no raw control, separator or bidirectional
/// character, whatever the value holds).
struct DiffOracle {
    let entryPoint: FuzzEntryPoint

    func check(_ value: UserInfoValue, _ equalCopy: UserInfoValue) throws(FuzzFinding) {
        let comparison = DocumentComparison()
        let same = comparison.differences(ComparedValue(value), ComparedValue(equalCopy))
        try expect(same.isEmpty, "diff found \(same.count) differences between a value and its round-tripped copy (first: \(same.first?.line ?? ""))")
        let other: UserInfoValue = value.typeName == "null" ? .string("other") : .null
        let retyped = comparison.differences(ComparedValue(value), ComparedValue(other))
        try expect(retyped.count == 1 && retyped[0].kind == .type && retyped[0].path.isEmpty,
                   "diff against a value of another type gave \(retyped.map(\.kind))")
        let line = retyped[0].line
        try expect(!line.unicodeScalars.contains(where: JSONText.isUnreadable), "a diff line holds a raw control or bidirectional character")
    }

    private func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws(FuzzFinding) {
        if !condition { throw FuzzFinding(entryPoint: entryPoint, message: message()) }
    }
}

/// The userInfo counterpart of ``XMLImage``: plain XML drops date fractions;
/// every XML real spells NaN one way.
enum UserInfoXMLImage {
    enum Dates { case keep, unsigned, wholeSeconds }

    /// Plain-profile XML: dates to the second below.
    static func of(_ value: UserInfoValue) -> UserInfoValue { map(value, dates: .wholeSeconds) }
    /// Keyed archives in XML: NaN canonical, dates exact (NS.time is a real).
    static func nan(_ value: UserInfoValue) -> UserInfoValue { map(value, dates: .keep) }
    /// Typed JSON: NaN canonical, the date −0.0 as 0.0.
    static func typedJSON(_ value: UserInfoValue) -> UserInfoValue { map(value, dates: .unsigned) }

    private static func map(_ value: UserInfoValue, dates: Dates) -> UserInfoValue {
        switch value {
        case .number(.real(let real)) where real.isNaN: return .number(.real(.nan))
        case .date(let date) where dates != .keep:
            let seconds = date.timeIntervalSinceReferenceDate
            return .date(Date(timeIntervalSinceReferenceDate: (dates == .wholeSeconds ? seconds.rounded(.down) : seconds) + 0.0))
        case .array(let array): return .array(array.map { map($0, dates: dates) })
        case .dictionary(let dictionary): return .dictionary(dictionary.mapValues { map($0, dates: dates) })
        // Members too (found by mp-decode: a set holding the date −0.0). No two
        // members of a set that was read can merge here: Foundation's identity
        // already refuses −0.0 beside 0.0 (ambiguousSetMembers).
        case .set(let set): return .set(UserInfoSet(set.members.map { map($0, dates: dates) }))
        default: return value
        }
    }
}

/// Payloads: decode (envelope, required keys, version check and migration,
/// incoming URL translation), re-encode from the same device, decode again.
struct PayloadRoundTrip {
    let options: UInt8

    func check(_ document: Data) throws(FuzzFinding) {
        let layout = FuzzOptions.layout(options)
        let versioning = FuzzOptions.versioning(options)
        let codec = PayloadCodec(layout: layout, versioning: versioning, limits: FuzzOptions.limits(options))
        guard let first = try? codec.decode(document) else { return }
        // The envelope as decoded (before URL translation, which only lengthens paths
        // by a layout's root per URL) weighs at most the payload budget's multiple.
        let budget = codec.limits.expansionBudget(inputBytes: document.count)
        let oracle = CostOracle(entryPoint: .payloadDecode)
        let size = try oracle.expandedSize(of: first.payload.envelope, budget: 2 * budget)
        for form in UserInfoWireForm.allCases {
            var encoder = codec
            encoder.userInfoForm = form
            encoder.limits = .default
            let encoded: EncodedPayload
            do { encoded = try encoder.encode(first.payload) } catch where (error.underlying as? UserInfoError).map(FuzzChecks.cannotCarry) == true
                || error.underlying.map({ FuzzChecks.refusedAsUnreadable($0, expandedSize: size) }) == true {
                continue
            } catch {
                throw FuzzFinding(entryPoint: .payloadDecode, message: "a decoded payload does not encode (\(form)): \(error)")
            }
            try oracle.checkOutput(encoded.data.count, "payload \(form)", expandedSize: size)
            var decoder = encoder
            decoder.limits = .default
            let second: DecodedPayload
            do { second = try decoder.decode(encoded.data) } catch {
                throw FuzzFinding(entryPoint: .payloadDecode, message: "a re-encoded payload does not decode (\(form)): \(error)")
            }
            var expected = first.payload
            if let versioning { expected.userInfo = versioning.stamp(expected.userInfo) }
            guard second.payload == expected else {
                throw FuzzFinding(entryPoint: .payloadDecode, message: "payload round trip changed the payload (\(form))")
            }
        }
    }
}
