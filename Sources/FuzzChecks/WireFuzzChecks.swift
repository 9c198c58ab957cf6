import ActivityContainer
import DocumentFormats
import FoundationEssentials
import Handoff
import KeyedArchive
import MPUserInfo
import PropertyList
import UserInfo

/// MP userInfo (Specs/fuzzing.md, "mp-decode, container-decode and openstep-read"): a userInfo that decoded
/// must write back as MP to bytes that read to an equal value and that are a
/// fixed point of read-then-write; as a keyed archive it must read back to
/// the same value (the differential oracle: both of Apple's userInfo forms
/// agree); and the general userInfo round trips (profiles, typed JSON) hold.
struct MPRoundTrip {
    let expandedSize: Int

    func check(_ userInfo: UserInfoDictionary) throws(FuzzFinding) {
        let entryPoint = FuzzEntryPoint.mpDecode
        func finding(_ message: String) -> FuzzFinding { FuzzFinding(entryPoint: entryPoint, message: message) }
        let bytes: [UInt8]
        do { bytes = try MPUserInfoWriter().writeBytes(userInfo) } catch {
            if FuzzChecks.refusedAsUnreadable(error, expandedSize: expandedSize) { return }
            throw finding("a decoded userInfo does not write as MP: \(error)")
        }
        try CostOracle(entryPoint: entryPoint).checkOutput(bytes.count, "MP", expandedSize: expandedSize)
        let again: UserInfoDictionary
        do { again = try MPUserInfoReader().read(bytes) } catch {
            throw finding("our MP output does not read back: \(error)")
        }
        guard again == userInfo else { throw finding("MP round trip changed the value") }
        guard (try? MPUserInfoWriter().writeBytes(again)) == bytes else { throw finding("MP writing is not a fixed point of reading") }
        // The differential oracle: the same userInfo as a keyed archive.
        let value = UserInfoValue.dictionary(userInfo)
        do {
            let archive = try KeyedArchiveWriter().write(value)
            let archived = try KeyedArchiveReader().read(archive)
            guard archived == value else { throw finding("MP and keyed archive decode to different values") }
        } catch let error as FuzzFinding {
            throw error
        } catch let error as UserInfoError where FuzzChecks.cannotCarry(error) || FuzzChecks.refusedAsUnreadable(error, expandedSize: expandedSize) {
            // `$null` cannot be archived (keyed-archive.md): MP carries it, archives cannot.
        } catch {
            throw finding("a userInfo read from MP does not round-trip as a keyed archive: \(error)")
        }
        try UserInfoRoundTrip(entryPoint: entryPoint, expandedSize: expandedSize).check(value)
        // directHandOver: the direct Codable path writes what the tree path writes, or hands over where it refuses.
        let state = EncodableUserInfo(value: value)
        let coder = MPUserInfoEncoder()
        guard coder.directBytes(state) == (try? coder.treeBytes(state)) else {
            throw finding("the direct MP encoder and the tree path (UserInfoEncoder + MPUserInfoWriter) disagree")
        }
    }
}

/// The activity container (Specs/fuzzing.md, "mp-decode, container-decode and openstep-read"): a container
/// that decoded must write back, compressed as Apple's sender and not, to
/// bytes that read to an equal container, writing being a fixed point of
/// reading; its userInfo, when it decodes, must survive both userInfo forms.
struct ContainerRoundTrip {
    let limits: PropertyListLimits

    func check(_ document: Data) throws(FuzzFinding) {
        let entryPoint = FuzzEntryPoint.containerDecode
        func finding(_ message: String) -> FuzzFinding { FuzzFinding(entryPoint: entryPoint, message: message) }
        guard let (container, details) = try? ActivityContainerReader(maxBytes: limits.maxInputBytes).inspect(document) else { return }
        guard details.inflatedBytes <= max(limits.maxInputBytes, 0) else { throw finding("inflated past the cap: \(details.inflatedBytes)") }
        for compression in [ActivityContainerWriter.Compression.apple, .never] {
            let written: Data
            do { written = try ActivityContainerWriter(compression: compression).write(container) } catch {
                throw finding("a decoded container does not write (\(compression)): \(error)")
            }
            // Never larger than the fields read, but for the canonical JSON field
            // (whitespace and key order of the input aside, the same strings).
            if compression == .never, written.count > details.inflatedBytes + 64 {
                throw finding("writing grew the container from \(details.inflatedBytes) to \(written.count) bytes")
            }
            let back: ActivityContainer
            do { back = try ActivityContainerReader(maxBytes: 1 << 26).read(written) } catch {
                throw finding("our container (\(compression)) does not read back: \(error)")
            }
            guard back == container else { throw finding("container round trip (\(compression)) changed it") }
            guard (try? ActivityContainerWriter(compression: compression).write(back)) == written else {
                throw finding("container writing (\(compression)) is not a fixed point of reading")
            }
        }
        guard case .activity(let record) = container, let bytes = record.userInfo,
              let (userInfo, _) = try? UserInfoWireForm.decode(bytes, limits: limits) else {
            try WireOutputOracle(entryPoint: entryPoint).check([UInt8](document), expandedSize: details.inflatedBytes)
            return
        }
        let size = try CostOracle(entryPoint: entryPoint).expandedSize(of: .dictionary(userInfo), budget: limits.expansionBudget(inputBytes: bytes.count))
        try WireOutputOracle(entryPoint: entryPoint).check([UInt8](document), expandedSize: size + details.inflatedBytes)
        for form in UserInfoWireForm.allCases {
            let encoded: Data
            do { encoded = try form.encode(userInfo) } catch where FuzzChecks.cannotCarry(error) || FuzzChecks.refusedAsUnreadable(error, expandedSize: size) {
                continue
            } catch {
                throw finding("a container's userInfo does not encode as \(form): \(error)")
            }
            guard let decoded = try? UserInfoWireForm.decode(encoded, limits: .default), decoded.userInfo == userInfo, decoded.form == form else {
                throw finding("a container's userInfo does not round-trip as \(form)")
            }
        }
    }
}

/// What `plistkit print` and `plistkit convert typed-json` write for a wire
/// form (Specs/fuzzing.md, "Output oracles"; plistkit.md, "Wire forms"): for
/// every MP userInfo and container they read, the text and the typed JSON
/// stay within the cost bound of what was read (the userInfo's expanded size
/// and the container's inflated bytes), and the text, which a person reads,
/// holds no raw control, separator or bidirectional character but its line
/// breaks, whatever the title, type, identifiers, URL or userInfo hold.
struct WireOutputOracle {
    let entryPoint: FuzzEntryPoint

    func check(_ document: [UInt8], expandedSize: Int) throws(FuzzFinding) {
        let oracle = CostOracle(entryPoint: entryPoint)
        // A refusal is a correct outcome (the print path reads with the default limits).
        if let text = try? WireDocuments.description(document) {
            try oracle.checkOutput(text.utf8.count, "printed wire form", expandedSize: expandedSize)
            if let raw = text.unicodeScalars.first(where: { $0 != "\n" && JSONText.isUnreadable($0) }) {
                throw FuzzFinding(entryPoint: entryPoint, message: "the printed wire form holds a raw U+\(String(raw.value, radix: 16, uppercase: true))")
            }
        }
        if let json = try? WireDocuments.typedJSON(document) {
            try oracle.checkOutput(json.count, "typed JSON of the wire form", expandedSize: expandedSize)
        }
    }
}
