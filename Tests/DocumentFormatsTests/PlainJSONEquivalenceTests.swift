// TEMPORARY (issue 44): PlainJSONReader's explicit-stack converter against the recursive one it replaced.
import Foundation
import PropertyList
import Testing
import TypedJSON

private func oldValue(of node: StrictJSON.Node) throws(PropertyListError) -> PropertyListValue {
    let at = ErrorLocation.lineColumn(line: node.position.line, column: node.position.column)
    switch node {
    case .object(let members, _):
        var dictionary = PropertyListDictionary(minimumCapacity: members.count)
        for (key, member) in members {
            do { dictionary[key] = try oldValue(of: member) } catch { throw error.inside(.key(key)) }
        }
        return .dictionary(dictionary)
    case .array(let elements, _):
        var values: [PropertyListValue] = []
        for (position, element) in elements.enumerated() {
            do { values.append(try oldValue(of: element)) } catch { throw error.inside(.index(position)) }
        }
        return .array(values)
    case .string(let string, _): return .string(string)
    case .bool(let flag, _): return .bool(flag)
    case .null: throw PropertyListError(.unrepresentableValue, "JSON null has no property-list form", at: at)
    case .number(let text, _):
        if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
            guard let integer = PropertyListInteger(decimal: text) else {
                throw PropertyListError(.integerOutOfRange, "\(text) is outside [-2⁶³, 2⁶⁴)", at: at)
            }
            return .integer(integer)
        }
        guard let real = Double(text), real.isFinite else { throw PropertyListError(.unrepresentableValue, "\(text) is not a finite double", at: at) }
        return .real(real)
    }
}

private func describe(_ result: Result<PropertyListValue, PropertyListError>) -> String {
    switch result {
    case .success(let value): return "value \(value)"
    case .failure(let error): return "error \(error.code.name) \(error.reason) \(error.location) \(error.keyPath)"
    }
}

@Suite("TEMPORARY: plain JSON conversion before and after issue 44")
struct PlainJSONEquivalenceTests {
    @Test("same value or same error (code, reason, place, key path) on the corpora's JSON and generated documents")
    func same() throws {
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var inputs: [[UInt8]] = []
        for folder in ["Corpus", "../shared/conformance", "../shared/realworld", "Fuzz/.work"] {
            guard let walker = FileManager.default.enumerator(at: root.appending(path: folder), includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker where ["json"].contains(url.pathExtension) || url.path.contains("typed-json") {
                if let data = try? Data(contentsOf: url) { inputs.append([UInt8](data)) }
            }
        }
        var seed: UInt64 = 44
        func next(_ n: Int) -> Int { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Int((seed >> 33) % UInt64(n)) }
        let leaves = ["1", "-2", "1.5", "true", "false", "null", "\"s\"", "18446744073709551616", "1e999", "{}", "[]"]
        for _ in 0..<3000 {
            func make(_ depth: Int) -> String {
                if depth > 5 || next(3) == 0 { return leaves[next(leaves.count)] }
                let count = next(4)
                if next(2) == 0 { return "[" + (0..<count).map { _ in make(depth + 1) }.joined(separator: ",") + "]" }
                return "{" + (0..<count).map { "\"k\($0)\":" + make(depth + 1) }.joined(separator: ",") + "}"
            }
            inputs.append(Array(make(0).utf8))
        }
        var compared = 0
        for input in inputs {
            guard let node = try? StrictJSON.parse(input, maxDepth: 512, maxStringBytes: 1 << 26) else { continue }
            compared += 1
            let old = Result { () throws(PropertyListError) in try oldValue(of: node) }
            let new = Result { () throws(PropertyListError) in try PlainJSONReader().read(Data(input)) }
            #expect(describe(old) == describe(new), "\(String(decoding: input.prefix(200), as: UTF8.self))")
        }
        print("plain JSON equivalence: \(compared) documents")
        #expect(compared > 2000)
    }
}
