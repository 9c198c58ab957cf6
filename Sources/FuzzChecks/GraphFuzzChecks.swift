import FoundationEssentials
import KeyedArchive
import PropertyList
import UserInfo
import TypedJSON

/// The graph reader against the ten-type reader (Specs/fuzzing.md,
/// "keyed-decode"; Specs/keyed-archive.md, "Graph"), on binary archives: the
/// graph never accepts what the ten-type reader refuses for a structural
/// reason, and on every archive the ten-type reader reads, the graph resolved
/// from its root is the same value.
struct GraphAgreement {
    let limits: PropertyListLimits

    /// The ten-type reader's refusals that are about the archive's own structure,
    /// which the graph shares. (Its class rules are stricter for its ten classes:
    /// Apple's chain for each, hints checked, a class entry never used as an
    /// object; the graph reads any chain, so those refusals are not shared.
    /// `badTop` is shared only for a `$top` that is not a dictionary: the graph
    /// reads any keys there, Xcode's and Interface Builder's included.)
    static let structural: Set<ErrorCode> = [.missingArchiveKey, .unexpectedArchiveKey, .wrongArchiver, .wrongVersion,
                                             .badObjects, .badTop, .nilRoot]

    /// Whether the graph's `$top` is what the ten-type reader needs: one `root`
    /// (or `$$0`) key holding a UID.
    static func hasOneRoot(_ graph: KeyedArchiveGraph) -> Bool {
        guard graph.top.count == 1, let key = graph.top.keys.first, key == "root" || key == "$$0",
              case .uid? = graph.top[key] else { return false }
        return true
    }

    func check(_ document: Data) throws(FuzzFinding) {
        guard (try? BinaryPropertyListReader(limits: limits).read(document)) != nil else { return }
        let graph: KeyedArchiveGraph?
        do { graph = try KeyedArchiveGraph(reading: document, limits: limits) } catch { graph = nil }
        if let graph { try checkRendering(graph, inputBytes: document.count) }
        let value: UserInfoValue
        do {
            value = try KeyedArchiveReader(limits: limits).read(document)
        } catch {
            if Self.structural.contains(error.code), let graph, error.code != .badTop || Self.hasOneRoot(graph) {
                throw FuzzFinding(entryPoint: .keyedDecode, message: "the graph reads an archive the ten-type reader refuses for its structure (\(error.code))")
            }
            return
        }
        guard let graph else {
            throw FuzzFinding(entryPoint: .keyedDecode, message: "the graph refuses an archive the ten-type reader reads")
        }
        // The ten-type reader accepted it: acyclic, within maxDepth and within
        // the input's budget, so the graph resolves, within the same budget.
        let resolved: UserInfoValue?
        do {
            resolved = try graph.userInfoValue(maxExpandedBytes: limits.expansionBudget(inputBytes: document.count))
        } catch {
            throw FuzzFinding(entryPoint: .keyedDecode, message: "the graph refuses, for its budget, a value the ten-type reader reads: \(error)")
        }
        guard resolved == value else {
            throw FuzzFinding(entryPoint: .keyedDecode, message: "the graph and the ten-type reader read different values")
        }
    }

    /// The graph's output is linear in the archive (Specs/keyed-archive.md,
    /// "Graph"): its rendering fits the budget of the input's bytes (what
    /// plistkit applies), and the JSON written from it stays within the cost
    /// bound of its expanded size.
    func checkRendering(_ graph: KeyedArchiveGraph, inputBytes: Int) throws(FuzzFinding) {
        let budget = PropertyListLimits.default.expansionBudget(inputBytes: inputBytes)
        for plainJSON in [false, true] {
            let rendered: PropertyListValue
            do { rendered = try graph.rendered(plainJSON: plainJSON, limits: WriterLimits(maxExpandedBytes: budget)) } catch {
                throw FuzzFinding(entryPoint: .keyedDecode, message: "the graph of a \(inputBytes)-byte archive renders past its budget of \(budget): \(error)")
            }
            let oracle = CostOracle(entryPoint: .keyedDecode)
            let size = try oracle.expandedSize(of: rendered, budget: budget)
            try oracle.checkOutput(try typedJSON(rendered, pretty: true, .keyedDecode).count, "graph typed JSON", expandedSize: size)
            try oracle.checkOutput(rendered.description.utf8.count, "printed graph", expandedSize: size)
        }
    }
}
