import MPUserInfo
import PropertyList
import UserInfo

/// The per-key cost report of an MP userInfo (Specs/payload.md, "Cost
/// report"), in one pass: MP shares nothing, so removing an entry saves
/// exactly its key's and its value's bytes (and, when its map drops from 16
/// members to 15 or from 65,536 to 65,535, two more header bytes, which no
/// entry is charged for). Recursion is bounded by the writer's depth limit.
enum MPCostAttribution {
    /// The total size of the MP bytes and, for every dictionary entry reached
    /// through dictionaries and arrays (not sets), its cost.
    static func costs(of userInfo: UserInfoDictionary) -> (total: Int, entries: [CostReport.Entry]) {
        var entries: [CostReport.Entry] = []
        let size = measure(.dictionary(userInfo), at: .root, into: &entries)
        return (MPUserInfoReader.header.count + size, entries)
    }

    private static func measure(_ value: UserInfoValue, at path: PropertyListKeyPath, into entries: inout [CostReport.Entry]) -> Int {
        if let size = MPSize.scalar(value) { return size }
        switch value {
        case .dictionary(let dictionary):
            var size = MPSize.header(count: dictionary.count)
            for (key, member) in dictionary {
                let entryPath = path.appending(.key(key))
                let entry = MPSize.string(key) + measure(member, at: entryPath, into: &entries)
                entries.append(CostReport.Entry(keyPath: entryPath, bytes: entry))
                size += entry
            }
            return size
        case .array(let elements):
            var size = MPSize.header(count: elements.count)
            for (position, element) in elements.enumerated() {
                size += measure(element, at: path.appending(.index(position)), into: &entries)
            }
            return size
        case .set(let set):
            // C7 02 00, then an array; members have no stable place, so no entries inside.
            var ignored: [CostReport.Entry] = []
            return 3 + MPSize.header(count: set.count) + set.members.reduce(0) { $0 + measure($1, at: path, into: &ignored) }
        default:
            preconditionFailure("scalars are measured by MPSize.scalar")
        }
    }
}
