import ActivityContainer
import FoundationEssentials
import Handoff
import KeyedArchive
@_spi(ByteKit) import PropertyList
import UserInfo

/// The error packet (Specs/fuzzing.md, "error-packet and diff"; issue 42,
/// case 1): a keyed archive framed as an activity container's error packet
/// (header 0xF, one field) and run through what `plistkit print`, `payload
/// decode` and `payload check` run on it — `WireDocuments.description`,
/// `PayloadCodec.decode` (which names the NSError in its `errorPacket`
/// refusal), ``ArchivedError`` and the graph's userInfo view.
///
/// - Nothing traps, and `print` of the packet never fails: its text, every
///   string escaped (no raw control, separator or bidirectional character but
///   its line feeds), is at most the counted output's budget for the
///   archive's expansion budget; when the NSError's user info is shown, at
///   most the cost bound of what is shown (``CostOracle``).
/// - `payload decode` refuses with `errorPacket`, in a message no longer
///   than that budget.
/// - When the NSError reads, its user info's expanded size — computed here
///   from the definition, and by the bounded walk, which must agree — is
///   within the input's budget, and it is the value the graph's userInfo view
///   gives for `NSUserInfo`. A view that refuses for the budget
///   (`expansionLimitExceeded`) must be right: the same view without a budget
///   (each object resolved once, so it costs what the archive costs) gives a
///   value past the budget, or none.
struct ErrorPacketOracle {
    let limits: PropertyListLimits

    private func finding(_ message: String) -> FuzzFinding {
        FuzzFinding(entryPoint: .errorPacket, message: message)
    }

    /// The container of an error packet holding `archive` (Specs/activity-container.md).
    static func packet(_ archive: [UInt8]) -> [UInt8] {
        let word = UInt32(archive.count) | 0x0100_0000
        return [0x0F, 0, 0, 0] + (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } + archive
    }

    func check(_ archive: [UInt8]) throws(FuzzFinding) {
        // A present field holds 1 to 2²⁴ − 1 bytes.
        guard !archive.isEmpty, archive.count < 1 << 24 else { return }
        let packet = Self.packet(archive)
        let budget = PropertyListLimits.default.expansionBudget(inputBytes: archive.count)
        let outputBudget = Self.outputBudget(forExpansionBudget: budget)
        let error = try? ArchivedError(reading: Data(archive))
        try checkPrint(packet, error: error, outputBudget: outputBudget)
        try checkPayloadDecode(packet, outputBudget: outputBudget)
        try checkTypedJSON(packet)
        try checkArchivedError(archive)
    }

    /// The counted output's budget, from its definition (Specs/architecture.md,
    /// "One counted output"): 32 bytes per byte of expansion budget, and 4 KiB.
    static func outputBudget(forExpansionBudget budget: Int) -> Int {
        let (product, overflow) = budget.multipliedReportingOverflow(by: CostOracle.outputFactor)
        return overflow ? .max : product + CostOracle.outputSlack
    }

    /// `plistkit print` of the packet.
    private func checkPrint(_ packet: [UInt8], error: ArchivedError?, outputBudget: Int) throws(FuzzFinding) {
        let text: String
        do {
            guard let printed = try WireDocuments.description(packet) else {
                throw finding("print does not take an error packet for a wire form")
            }
            text = printed
        } catch let finding as FuzzFinding {
            throw finding
        } catch {
            // The user info is resolved within the archive's budget and rendered
            // within the output's, so print always answers (issue 42, case 1).
            throw finding("print of an error packet of \(packet.count) bytes failed: \(error)")
        }
        let bytes = text.utf8.count
        guard bytes <= outputBudget else {
            throw finding("print wrote \(bytes) bytes for an error packet, past its budget of \(outputBudget)")
        }
        if let raw = text.unicodeScalars.first(where: { $0 != "\n" && JSONText.isUnreadable($0) }) {
            throw finding("the printed error packet holds a raw U+\(String(raw.value, radix: 16, uppercase: true))")
        }
        // What print shows of a readable NSError: its domain and user info,
        // within the cost bound of their expanded size.
        if let error, let userInfo = error.userInfo {
            let oracle = CostOracle(entryPoint: .errorPacket)
            let size = try oracle.expandedSize(of: .dictionary(userInfo), budget: .max)
                + ExpandedSize.node(depth: 0, payload: error.domain.utf8.count)
            try oracle.checkOutput(bytes, "printed NSError", expandedSize: size)
        }
    }

    /// `plistkit payload decode` (and `payload check`, which decodes the same way).
    private func checkPayloadDecode(_ packet: [UInt8], outputBudget: Int) throws(FuzzFinding) {
        let codec = PayloadCodec()
        let outcome = Result { () throws(PayloadError) in try codec.decode(Data(packet)) }
        guard case .failure(let error) = outcome else {
            throw finding("payload decode took an error packet for an activity")
        }
        if packet.count <= codec.limits.maxInputBytes, error.code != .errorPacket {
            throw finding("payload decode refused an error packet with \(error.code), not errorPacket: \(error)")
        }
        let message = "\(error)".utf8.count
        guard message <= outputBudget else {
            throw finding("payload decode's refusal is \(message) bytes long, past the budget of \(outputBudget)")
        }
    }

    /// `plistkit convert typed-json` of the packet: `{"errorPacket": data}`.
    private func checkTypedJSON(_ packet: [UInt8]) throws(FuzzFinding) {
        guard let json = try? WireDocuments.typedJSON(packet) else {
            throw finding("typed JSON of an error packet failed")
        }
        // The archive in base64 and a few dozen bytes of typed JSON around it.
        try CostOracle(entryPoint: .errorPacket).checkOutput(json.count, "typed JSON of the error packet", expandedSize: packet.count)
    }

    /// ``ArchivedError`` and the graph's userInfo view, within the limits the options byte chose.
    private func checkArchivedError(_ archive: [UInt8]) throws(FuzzFinding) {
        let data = Data(archive)
        let budget = limits.expansionBudget(inputBytes: archive.count)
        guard let graph = try? KeyedArchiveGraph(reading: data, limits: limits) else {
            guard (try? ArchivedError(reading: data, limits: limits)) == nil else {
                throw finding("ArchivedError reads an archive the graph reader refuses")
            }
            return
        }
        // The NSError's user info, as the archive references it.
        var userInfoReference: Int?
        if let root = graph.root, root < graph.objects.count, case .object(_, _, let fields) = graph.objects[root],
           case .uid(let reference)? = fields["NSUserInfo"], reference != 0, Int(reference) < graph.objects.count {
            userInfoReference = Int(reference)
        }
        let error: ArchivedError
        do {
            error = try ArchivedError(reading: data, limits: limits)
        } catch {
            if error.code == .expansionLimitExceeded {
                // Refused for its budget: the domain or the user info is past it.
                guard let userInfoReference else {
                    throw finding("ArchivedError refused for its budget an NSError with no user info")
                }
                try checkRefusal(graph, at: userInfoReference, budget: budget, "ArchivedError")
            }
            return
        }
        if let reference = userInfoReference {
            let view: UserInfoValue?
            do { view = try graph.userInfoValue(at: reference, maxExpandedBytes: budget) } catch {
                throw finding("the graph's userInfo view refuses (\(error.code)) the user info ArchivedError read")
            }
            if let userInfo = error.userInfo {
                guard view == .dictionary(userInfo) else {
                    throw finding("ArchivedError's user info is not the graph's userInfo view of NSUserInfo")
                }
                try checkCost(.dictionary(userInfo), budget: budget, "the NSError's user info")
            } else if case .dictionary? = view {
                throw finding("ArchivedError has no user info where the graph's view gives a dictionary")
            } else if !error.userInfoHasOtherClasses {
                throw finding("ArchivedError says nothing of a user info the archive references")
            }
        } else if error.userInfo != nil || error.userInfoHasOtherClasses {
            throw finding("ArchivedError has a user info the archive does not reference")
        }
        // The view from the root, and from one other object the input chooses.
        var random = SplitMix(seed: archive)
        for index in [graph.root, random.next(graph.objects.count)] {
            switch Result(catching: { () throws(UserInfoError) in try graph.userInfoValue(at: index, maxExpandedBytes: budget) }) {
            case .success(let value?):
                try checkCost(value, budget: budget, "the graph's userInfo view of object \(index ?? -1)")
            case .success(nil):
                break
            case .failure(let error):
                guard error.code == .expansionLimitExceeded else {
                    throw finding("the graph's userInfo view failed with \(error.code): \(error)")
                }
                try checkRefusal(graph, at: index ?? 0, budget: budget, "the graph's userInfo view")
            }
        }
    }

    /// A value built within `budget`: its expanded size, by the definition
    /// (``CostOracle``) and by the bounded walk, agree and are within it.
    private func checkCost(_ value: UserInfoValue, budget: Int, _ what: String) throws(FuzzFinding) {
        let size = try CostOracle(entryPoint: .errorPacket).expandedSize(of: value, budget: budget)
        let walked: Int
        do { walked = try ValueWalk.expandedSize(of: value, budget: budget) } catch {
            throw finding("the bounded walk refuses \(what) (\(size) bytes expanded, budget \(budget)): \(error)")
        }
        // The walk charges a URL's base chain as one payload, the definition as nested URLs.
        guard walked <= size, walked == size || value.containsURL else {
            throw finding("the bounded walk charges \(walked) bytes for \(what), the definition gives \(size)")
        }
    }

    /// A refusal for the budget is right: without a budget, the view of
    /// object `index` is past it, or is no value at all.
    private func checkRefusal(_ graph: KeyedArchiveGraph, at index: Int, budget: Int, _ what: String) throws(FuzzFinding) {
        guard let value = try? graph.userInfoValue(at: index, maxExpandedBytes: .max) else { return }
        if (try? CostOracle(entryPoint: .errorPacket).expandedSize(of: value, budget: budget)) != nil {
            throw finding("\(what) refused for its budget of \(budget) bytes a value within it")
        }
    }
}

extension FuzzChecks {
    /// What the error-packet target runs on `input` (options byte, then
    /// archive), for the tests that show its oracle is not vacuous: the
    /// printed packet, whether the NSError read with a user info, and
    /// whether it was refused for its budget (default limits).
    @_spi(Fuzzing) public static func errorPacketProbe(_ input: [UInt8]) -> (printed: String?, readsUserInfo: Bool, refusedForBudget: Bool) {
        let archive = Array(input.dropFirst())
        let printed = try? WireDocuments.description(ErrorPacketOracle.packet(archive))
        switch Result(catching: { () throws(UserInfoError) in try ArchivedError(reading: Data(archive)) }) {
        case .success(let error): return (printed, error.userInfo != nil, false)
        case .failure(let error): return (printed, false, error.code == .expansionLimitExceeded)
        }
    }
}

extension UserInfoValue {
    /// Whether a URL is somewhere in the value (bounded by what the caller has measured).
    fileprivate var containsURL: Bool {
        var pending = [self]
        while let value = pending.popLast() {
            switch value {
            case .url: return true
            case .array(let members): pending += members
            case .set(let set): pending += set.members
            case .dictionary(let entries): pending += entries.values
            default: continue
            }
        }
        return false
    }
}
