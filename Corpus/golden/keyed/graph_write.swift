// Writes the graph golden archives with Linux Foundation's NSKeyedArchiver (a
// peer): custom classes, a cycle, a shared object. Usage:
//   swiftc graph_write.swift -o /tmp/graph_write && /tmp/graph_write graph/
// Specs/keyed-archive.md, "Graph"; Specs/golden-files.md.
import Foundation

final class Node: NSObject, NSCoding {
    var name: String
    var weight: Int
    var children: [Node] = []
    weak var parent: Node?
    var tag: NSObject?

    init(name: String, weight: Int) {
        self.name = name
        self.weight = weight
    }

    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(weight, forKey: "weight")
        coder.encode(children, forKey: "children")
        coder.encode(parent, forKey: "parent")
        coder.encode(tag, forKey: "tag")
    }

    required init?(coder: NSCoder) { return nil }
}

let directory = CommandLine.arguments[1]
func write(_ object: Any, _ name: String) throws {
    let data = try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: false)
    try data.write(to: URL(fileURLWithPath: directory).appendingPathComponent("\(name).bplist"))
}

// A tree whose children point back at their parent (a cycle), sharing one tag object.
let root = Node(name: "root", weight: 1)
let shared = NSString(string: "shared tag")
for (index, name) in ["left", "right"].enumerated() {
    let child = Node(name: name, weight: 10 + index)
    child.parent = root
    child.tag = shared
    root.children.append(child)
}
try write(root, "tree-with-cycle")

// A dictionary of Foundation values holding a custom object twice (one object, two references).
let leaf = Node(name: "leaf", weight: 7)
try write(NSDictionary(dictionary: ["a": leaf, "b": leaf, "n": NSNumber(value: 3), "when": NSDate(timeIntervalSinceReferenceDate: 5)]), "shared-custom")

// An object that contains itself.
let selfish = Node(name: "self", weight: 0)
selfish.children = [selfish]
try write(selfish, "self-reference")
