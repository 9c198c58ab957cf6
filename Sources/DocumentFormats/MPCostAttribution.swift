import MPUserInfo
@_spi(ByteKit) import PropertyList
import UserInfo

/// The per-key cost report of an MP userInfo (Specs/payload.md, "Cost
/// report"), in one pass: MP shares nothing, so removing an entry saves
/// exactly its key's and its value's bytes (and, when its map drops from 16
/// members to 15 or from 65,536 to 65,535, two more header bytes, which no
/// entry is charged for). Measured through the one bounded walk
/// (Specs/architecture.md, "One bounded walk"), which charges the expanded
/// size that MP writes out.
enum MPCostAttribution {
    /// The total size of the MP bytes and, for every dictionary entry reached
    /// through dictionaries and arrays (not sets), its cost.
    ///
    /// - Throws: ``ErrorCode/expansionLimitExceeded`` past `maxExpandedBytes`
    ///   (what an MP writer with the same bound refuses to write).
    static func costs(of userInfo: UserInfoDictionary,
                      maxExpandedBytes: Int = PropertyListLimits.default.maxExpandedBytes) throws(PropertyListError) -> (total: Int, entries: [UserInfoWireForm.EntryCost]) {
        var meter = ExpansionMeter(limit: maxExpandedBytes)
        var measure = Measure()
        try ValueWalk.walk(UserInfoValue.dictionary(userInfo), meter: &meter, visitor: &measure)
        return (MPUserInfoReader.header.count + measure.total, measure.entries)
    }

    /// Sizes summed bottom-up per open container; an entry recorded when its value is done.
    private struct Measure: ValueVisitor {
        typealias Value = UserInfoValue
        typealias Failure = PropertyListError
        /// An open container: its size so far, its key path, and whether it
        /// is inside a set (whose members have no stable place: no entries).
        private var frames: [(size: Int, path: PropertyListKeyPath, inSet: Bool)] = []
        var entries: [UserInfoWireForm.EntryCost] = []
        var total = 0

        /// The key path of the member at `place`.
        private func path(_ place: WalkPlace) -> PropertyListKeyPath {
            guard let last = frames.last, let component = place.component else { return frames.last?.path ?? .root }
            return last.path.appending(component)
        }

        /// Adds a finished member of `size` bytes to its container, recording its entry.
        private mutating func deliver(_ size: Int, at place: WalkPlace) {
            guard let last = frames.indices.last else { return total = size }
            if case .key(let key) = place {
                let entry = MPSize.string(key) + size
                if !frames[last].inSet { entries.append((keyPath: path(place), bytes: entry)) }
                frames[last].size += entry
            } else {
                frames[last].size += size
            }
        }

        mutating func visit(scalar value: UserInfoValue, at place: WalkPlace, depth: Int) {
            deliver(MPSize.scalar(value)!, at: place)
        }

        mutating func enter(_ value: UserInfoValue, _ container: WalkContainer, at place: WalkPlace, depth: Int) -> Bool {
            // A set: C7 02 00, then an array.
            let header = (container.kind == .set ? 3 : 0) + MPSize.header(count: container.count)
            let inSet = container.kind == .set || (frames.last?.inSet ?? false)
            frames.append((header, path(place), inSet))
            return true
        }

        mutating func leave(_ value: UserInfoValue, _ container: WalkContainer, at place: WalkPlace, depth: Int) {
            let frame = frames.removeLast()
            deliver(frame.size, at: place)
        }
    }
}
