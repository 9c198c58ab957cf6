import FoundationEssentials
import KeyedArchive
import PropertyList
import UserInfo

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
    /// object; the graph reads any chain, so those refusals are not shared.)
    static let structural: Set<ErrorCode> = [.missingArchiveKey, .unexpectedArchiveKey, .wrongArchiver, .wrongVersion,
                                             .badObjects, .badTop, .nilRoot]

    func check(_ document: Data) throws(FuzzFinding) {
        guard (try? BinaryPropertyListReader(limits: limits).read(document)) != nil else { return }
        let graph: KeyedArchiveGraph?
        do { graph = try KeyedArchiveGraph(reading: document, limits: limits) } catch { graph = nil }
        let value: UserInfoValue
        do {
            value = try KeyedArchiveReader(limits: limits).read(document)
        } catch {
            if Self.structural.contains(error.code), graph != nil {
                throw FuzzFinding(entryPoint: .keyedDecode, message: "the graph reads an archive the ten-type reader refuses for its structure (\(error.code))")
            }
            return
        }
        guard let graph else {
            throw FuzzFinding(entryPoint: .keyedDecode, message: "the graph refuses an archive the ten-type reader reads")
        }
        // The ten-type reader accepted it: acyclic, within maxDepth, so resolving recurses at most that deep.
        guard Self.resolve(graph, graph.root, depth: 0) == value else {
            throw FuzzFinding(entryPoint: .keyedDecode, message: "the graph and the ten-type reader read different values")
        }
    }

    static func resolve(_ graph: KeyedArchiveGraph, _ index: Int, depth: Int) -> UserInfoValue? {
        guard depth <= PropertyListLimits.maxSupportedDepth + 1 else { return nil }
        switch graph.objects[index] {
        case .value(let plist): return UserInfoValue(propertyListScalar: plist)
        case .string(let string): return .string(string)
        case .data(let data): return .data(data)
        case .date(let date): return .date(date)
        case .uuid(let uuid): return .uuid(uuid)
        case .null: return .null
        case .array(let elements):
            var values: [UserInfoValue] = []
            for element in elements {
                guard let value = resolve(graph, element, depth: depth + 1) else { return nil }
                values.append(value)
            }
            return .array(values)
        case .set(let members):
            var set = UserInfoSet()
            for member in members {
                guard let value = resolve(graph, member, depth: depth + 1) else { return nil }
                set.insert(value)
            }
            return .set(set)
        case .dictionary(let keys, let values):
            var dictionary = UserInfoDictionary()
            for (key, member) in zip(keys, values) {
                guard case .string(let name)? = resolve(graph, key, depth: depth + 1), let value = resolve(graph, member, depth: depth + 1) else { return nil }
                dictionary[name] = value
            }
            return .dictionary(dictionary)
        case .url(let relative, let base):
            guard case .string(let text)? = resolve(graph, relative, depth: depth + 1) else { return nil }
            if base == 0 { return .url(UserInfoURL(relative: text)) }
            guard case .url(let baseURL)? = resolve(graph, base, depth: depth + 1) else { return nil }
            return .url(UserInfoURL(relative: text, base: baseURL))
        case .nilObject, .classEntry, .object:
            return nil
        }
    }
}
