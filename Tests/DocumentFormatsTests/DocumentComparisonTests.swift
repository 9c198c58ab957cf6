import DocumentFormats
import Foundation
import PropertyBased
import PropertyList
import TestSupport
import Testing
import UserInfo

/// `plistkit diff`'s comparison (Specs/plistkit.md, "Diff"), checked on
/// generated pairs against two independent oracles: the value model's own
/// exact equality (equal exactly when no difference is reported), and a
/// patch: applying the reported differences to the first value, with a few
/// lines of code that know nothing of how they were found, gives the second.
@Suite("Diff: the comparison of two values")
struct DocumentComparisonTests {
    /// A value and an edited copy of it (a few random edits, or none).
    static let pairs = Generator<(PropertyListValue, PropertyListValue), Shrink.None<(PropertyListValue, PropertyListValue)>> { rng in
        let settings = ValueGenerator(maxDepth: 3, maxWidth: 5)
        let first = settings.value(depth: 0, using: &rng)
        var second = first
        for _ in 0..<Int.random(in: 0...4, using: &rng) { second = edit(second, settings, using: &rng) }
        return (first, second)
    }

    /// One random edit somewhere in `value`: a scalar or subtree replaced, a
    /// key added or removed, an array member inserted, removed or appended.
    static func edit(_ value: PropertyListValue, _ settings: ValueGenerator, using rng: inout any SeededRandomNumberGenerator) -> PropertyListValue {
        let descend = Int.random(in: 0..<3, using: &rng) > 0
        switch value {
        case .dictionary(var entries) where !entries.isEmpty:
            let position = Int.random(in: 0..<entries.count, using: &rng)
            let key = entries.keys[position]
            if descend {
                entries[key] = edit(entries[key]!, settings, using: &rng)
            } else if Bool.random(using: &rng) {
                entries[key] = nil
            } else {
                _ = entries.insertNew(settings.value(depth: 2, using: &rng), forKey: settings.string(using: &rng))
            }
            return .dictionary(entries)
        case .array(var members) where !members.isEmpty:
            let position = Int.random(in: 0..<members.count, using: &rng)
            if descend {
                members[position] = edit(members[position], settings, using: &rng)
            } else {
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: members.remove(at: position)
                case 1: members.insert(settings.value(depth: 2, using: &rng), at: position)
                default: members.append(settings.value(depth: 2, using: &rng))
                }
            }
            return .array(members)
        default:
            return settings.value(depth: 2, using: &rng)
        }
    }

    @Test("no difference exactly when the values are equal; the differences patch the first value into the second")
    func generatedPairs() async {
        await propertyCheck(count: 500, input: Self.pairs) { pair in
            let (first, second) = pair
            let differences = DocumentComparison().differences(ComparedValue(first), ComparedValue(second))
            #expect(differences.isEmpty == (first == second))
            let patched = try Self.patch(first, with: differences)
            #expect(patched == second)
            // Each line names a place where the two really differ.
            for difference in differences where difference.kind == .changed || difference.kind == .type {
                #expect(difference.old != difference.new)
                #expect(difference.old?.typeName == difference.new?.typeName || difference.kind == .type)
            }
        }
    }

    @Test("--match-moved: a permuted array is moves only; edits inside still patch")
    func matchedPairs() async {
        await propertyCheck(count: 300, input: Self.pairs) { pair in
            let (first, second) = pair
            let comparison = DocumentComparison(matchMoved: true)
            let differences = comparison.differences(ComparedValue(first), ComparedValue(second))
            #expect(differences.isEmpty == (first == second))
            // Reversing an array's members: every member moves (equal members may pair among themselves).
            if case .array(let members) = first {
                let reversed = comparison.differences(ComparedValue(first), ComparedValue(.array(members.reversed())))
                #expect(reversed.allSatisfy { $0.kind == .moved })
            }
        }
    }

    /// Applies differences found by index (not `moved`) to `value`: replace
    /// at changed and retyped paths, add and remove keys, append added array
    /// members, and drop removed ones (last first, so indexes stay true).
    static func patch(_ value: PropertyListValue, with differences: [DocumentDifference]) throws -> PropertyListValue {
        var result = value
        let removals = differences.filter { $0.kind == .removed }
        for difference in differences where difference.kind != .removed {
            let new = try #require(difference.new.flatMap(Self.propertyList))
            result = try Self.apply(result, difference.path[...]) { container in
                switch (difference.kind, container, difference.path.last) {
                case (.added, .dictionary(var entries)?, .key(let key)?):
                    let inserted = entries.insertNew(new, forKey: key)
                    #expect(inserted)
                    return .dictionary(entries)
                case (.added, .array(var members)?, .index(let index)?):
                    #expect(index == members.count)
                    members.append(new)
                    return .array(members)
                default:
                    return nil
                }
            } replace: { _ in new }
        }
        for difference in removals.reversed() {
            result = try Self.apply(result, difference.path[...]) { container in
                switch (container, difference.path.last) {
                case (.dictionary(var entries)?, .key(let key)?):
                    entries[key] = nil
                    return .dictionary(entries)
                case (.array(var members)?, .index(let index)?):
                    members.remove(at: index)
                    return .array(members)
                default:
                    return nil
                }
            } replace: { _ in nil }
        }
        return result
    }

    /// Walks `path` in `value`; at its end either `inParent` changes the
    /// container holding the last component (adds and removals), or
    /// `replace` gives the value there.
    static func apply(_ value: PropertyListValue, _ path: ArraySlice<DocumentDifference.Component>,
                      inParent: (PropertyListValue?) -> PropertyListValue?, replace: (PropertyListValue) -> PropertyListValue?) throws -> PropertyListValue {
        if path.count == 1, let changed = inParent(value) { return changed }
        guard let first = path.first else { return try #require(replace(value)) }
        switch (value, first) {
        case (.dictionary(var entries), .key(let key)):
            entries[key] = try apply(try #require(entries[key]), path.dropFirst(), inParent: inParent, replace: replace)
            return .dictionary(entries)
        case (.array(var members), .index(let index)):
            members[index] = try apply(members[index], path.dropFirst(), inParent: inParent, replace: replace)
            return .array(members)
        default:
            Issue.record("the path \(path) does not lead through \(value)")
            return value
        }
    }

    static func propertyList(_ value: ComparedValue) -> PropertyListValue? { value.propertyListValue }

    @Test("types apart: 1, 1.0 and true differ; a signed and an unsigned 1 do not")
    func typesApart() {
        let comparison = DocumentComparison()
        let one = ComparedValue(PropertyListValue.integer(1))
        #expect(comparison.differences(one, ComparedValue(PropertyListValue.real(1))).map(\.kind) == [.type])
        #expect(comparison.differences(one, ComparedValue(PropertyListValue.bool(true))).map(\.kind) == [.type])
        #expect(comparison.differences(one, ComparedValue(UserInfoValue.number(.integer(PropertyListInteger(UInt64(1)))))).isEmpty)
        #expect(comparison.differences(ComparedValue(PropertyListValue.real(0)), ComparedValue(PropertyListValue.real(-0.0))).map(\.kind) == [.changed])
        // Canonically equivalent keys are different keys.
        let composed = ComparedValue(PropertyListValue.dictionary(["\u{E9}": 1]))
        let decomposed = ComparedValue(PropertyListValue.dictionary(["e\u{301}": 1]))
        #expect(comparison.differences(composed, decomposed).map(\.kind) == [.removed, .added])
    }

    @Test("datePrecision: whole seconds when a side keeps no fraction")
    func datePrecision() {
        let precise = ComparedValue(PropertyListValue.date(Date(timeIntervalSinceReferenceDate: 12.75)))
        let whole = ComparedValue(PropertyListValue.date(Date(timeIntervalSinceReferenceDate: 12)))
        let negative = ComparedValue(PropertyListValue.date(Date(timeIntervalSinceReferenceDate: -12.25)))
        let negativeWhole = ComparedValue(PropertyListValue.date(Date(timeIntervalSinceReferenceDate: -13)))
        #expect(DocumentComparison().differences(precise, whole).map(\.kind) == [.changed])
        #expect(DocumentComparison(wholeSecondDates: true).differences(precise, whole).isEmpty)
        // Rounded down, as XML writers drop the fraction: -12.25 s is written -13 s.
        #expect(DocumentComparison(wholeSecondDates: true).differences(negative, negativeWhole).isEmpty)
        #expect(DocumentComparison(wholeSecondDates: true).differences(whole, ComparedValue(PropertyListValue.date(Date(timeIntervalSinceReferenceDate: 13)))).count == 1)
    }

    @Test("sets: members added and removed, in any order; lines escape what they print")
    func setsAndLines() throws {
        let a: UserInfoValue = ["tags": .set(["x", "y", 1]), "when": .date(Date(timeIntervalSinceReferenceDate: 0.5))]
        let b: UserInfoValue = ["tags": .set([1, "y", "z\u{202E}\n"]), "when": .date(Date(timeIntervalSinceReferenceDate: 0.5))]
        let differences = DocumentComparison().differences(ComparedValue(a), ComparedValue(b))
        #expect(differences.map(\.kind) == [.removed, .added])
        #expect(differences.map(\.line) == [#"removed "tags": "x""#, #"added "tags": "z\u202e\n""#])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(try differences[1].json().utf8)) as? [String: Any])
        #expect(object["kind"] as? String == "added")
        #expect(object["keyPath"] as? String == "tags")
        #expect(object["path"] as? [String] == ["tags"])
        #expect(object["old"] == nil)
        #expect((object["new"] as? [String: Any])?["value"] as? String == "z\u{202E}\n")
        // Key paths in plutil's spelling: dots and backslashes in keys escaped.
        let nested = DocumentComparison().differences(ComparedValue(PropertyListValue.dictionary(["a.b\\": .array([1])])),
                                                      ComparedValue(PropertyListValue.dictionary(["a.b\\": .array([2])])))
        #expect(nested.map(\.keyPath) == [#"a\.b\\.0"#])
        #expect(nested.map(\.line) == [#"changed "a\\.b\\\\.0": 1 -> 2"#])
    }
}
