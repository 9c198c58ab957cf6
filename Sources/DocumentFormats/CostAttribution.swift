import KeyedArchive
import PropertyList
import UserInfo

/// The per-key cost report in one pass (Specs/payload.md, "Cost report").
///
/// The userInfo is archived once (binary keyed archive, the form the budget
/// measures), and the binary property list's objects — each with its exact
/// size, scalars shared as the writer shares them — form a graph: containers
/// refer to their members, a UID object to the archive object it names, and
/// each dictionary entry becomes a node of its own between its dictionary and
/// its key and value. An object disappears when an entry is removed exactly
/// when every path to it from the top of the file passes through that entry:
/// when the entry *dominates* it. So an entry's cost is the size of everything
/// it dominates (each object with its offset-table slot, and its slot in
/// `$objects`), plus its own two references in its dictionary. The dominator tree of this acyclic
/// graph is built in one pass in topological order (each object's immediate
/// dominator is the lowest common one of its referrers).
enum CostAttribution {
    /// The total size and, for every traced entry, its cost.
    static func costs(of userInfo: UserInfoDictionary) throws(UserInfoError) -> (total: Int, entries: [UserInfoWireForm.EntryCost]) {
        let archive: PropertyListValue
        let entries: [ArchivedEntry]
        let graph: BinaryObjectGraph
        (archive, entries) = try KeyedArchiveWriter().archiveTracingEntries(.dictionary(userInfo))
        do {
            graph = try BinaryPropertyListWriter().objectGraph(archive)
        } catch {
            throw UserInfoError(error)
        }
        let model = Model(graph: graph)
        guard !entries.isEmpty, let objectsArray = model.field(0, named: "$objects") else { return (graph.totalBytes, []) }
        let archiveObjects = Array(graph.children(of: objectsArray))
        let binaryCount = graph.sizes.count

        // Successors: a binary object's references, but the $objects array (which
        // lists every archive object, each only while something refers to it) has
        // none, a UID leads to its archive object, and an entry's two references
        // go through the entry's own node.
        var successors: [[Int]] = (0..<binaryCount).map { Array(graph.children(of: $0)) }
        successors[objectsArray] = []
        for object in 0..<binaryCount {
            // UID 0 names $objects[0], the "$null" every archive holds whatever refers to it.
            if let uid = graph.uid(object) { successors[object] = uid > 0 && Int(uid) < archiveObjects.count ? [archiveObjects[Int(uid)]] : [] }
        }
        var sizes = graph.sizes.map { $0 + graph.offsetSize }
        for object in archiveObjects { sizes[object] += graph.referenceSize }
        for entry in entries {
            let dictionary = archiveObjects[Int(entry.dictionary)]
            guard let keys = model.field(dictionary, named: "NS.keys"), let values = model.field(dictionary, named: "NS.objects") else { continue }
            let node = successors.count
            successors.append([successors[keys][entry.position], successors[values][entry.position]])
            successors[keys][entry.position] = -1
            successors[values][entry.position] = -1
            successors[dictionary].append(node)
            // The entry's two references are counted for it alone: an entry around
            // it frees the whole arrays that hold them, already counted.
            sizes.append(0)
        }

        let dominated = Self.dominatedSizes(successors: successors, sizes: sizes, root: 0)
        let report = entries.enumerated().map {
            (keyPath: $0.element.keyPath, bytes: dominated[binaryCount + $0.offset] + 2 * graph.referenceSize)
        }
        return (graph.totalBytes, report)
    }

    /// For each node, the total size of the nodes it dominates (itself included),
    /// in a DAG reached from `root`; successors of -1 are removed edges.
    static func dominatedSizes(successors: [[Int]], sizes: [Int], root: Int) -> [Int] {
        let count = successors.count
        var indegree = [Int](repeating: 0, count: count)
        var reached = [Bool](repeating: false, count: count)
        var stack = [root]
        reached[root] = true
        while let node = stack.popLast() {
            for next in successors[node] where next >= 0 {
                indegree[next] += 1
                if !reached[next] { reached[next] = true; stack.append(next) }
            }
        }
        var idom = [Int](repeating: -1, count: count)
        var depth = [Int](repeating: 0, count: count)
        var order: [Int] = []
        order.reserveCapacity(count)
        var ready = [root]
        while let node = ready.popLast() {
            order.append(node)
            for next in successors[node] where next >= 0 {
                idom[next] = idom[next] < 0 ? node : lowestCommon(idom[next], node, idom, depth)
                indegree[next] -= 1
                if indegree[next] == 0 {
                    depth[next] = depth[idom[next]] + 1
                    ready.append(next)
                }
            }
        }
        var totals = sizes
        for node in order.reversed() where node != root {
            totals[idom[node]] += totals[node]
        }
        return totals
    }

    /// The lowest common ancestor of two nodes in the dominator tree built so far.
    private static func lowestCommon(_ a: Int, _ b: Int, _ idom: [Int], _ depth: [Int]) -> Int {
        var (a, b) = (a, b)
        while depth[a] > depth[b] { a = idom[a] }
        while depth[b] > depth[a] { b = idom[b] }
        while a != b { (a, b) = (idom[a], idom[b]) }
        return a
    }

    /// Reads dictionaries of the graph by their (ASCII) key names.
    private struct Model {
        let graph: BinaryObjectGraph

        /// The value of the field `name` of the dictionary object `dictionary`.
        func field(_ dictionary: Int, named name: String) -> Int? {
            let children = graph.children(of: dictionary)
            let half = children.count / 2
            for position in 0..<half where graph.asciiString(children[children.startIndex + position]) == name {
                return children[children.startIndex + half + position]
            }
            return nil
        }
    }
}
