import FoundationEssentials
@_spi(ByteKit) import PropertyList

/// What Foundation's `isEqual:` considers the same userInfo value
/// (Specs/userinfo-value.md, "Sets"): `NSSet` keeps one of two such members,
/// so a set holding both would lose one on Apple's side.
///
/// - numbers are equal when equal as numbers, exactly, over the whole
///   `Int64` ∪ `UInt64` ∪ `Double` range (``NumberIdentity``): `1`, `1.0` and
///   `true` are one number; `18400000000000000000` and `1.84e19` too;
/// - dates compare their time intervals (`-0.0` is `0.0`);
/// - strings, dictionary keys and URL strings compare literally (by Unicode
///   scalars, as `NSString` compares UTF-16 units), data and UUIDs by bytes;
/// - arrays member by member, dictionaries key by key, sets member by member
///   in any order, URLs by relative string and base.
///
/// Each value has an ``IdentityDigest``: a 128-bit SipHash of a canonical
/// form, equal for Foundation-equal values. A set keeps its members' digests
/// (``UserInfoSet``), so a digest is computed once per node, never again for
/// each enclosing set: checking and ordering sets is linear in their size.
/// Equal digests are confirmed by ``equal(_:_:)`` before a set is refused.
enum FoundationIdentity {
    /// The digest of `value`'s Foundation identity. Recurses through arrays,
    /// dictionaries and URL bases; a set contributes its members' kept digests.
    static func digest(of value: UserInfoValue) -> IdentityDigest {
        var hasher = IdentityHasher()
        feed(value, into: &hasher)
        return hasher.finalize()
    }

    private static func feed(_ value: UserInfoValue, into hasher: inout IdentityHasher) {
        switch value {
        case .number(let number):
            hasher.tag(1)
            NumberIdentity(number).feed(into: &hasher)
        case .string(let string):
            hasher.tag(2)
            hasher.string(string)
        case .data(let data):
            hasher.tag(3)
            hasher.count(data.count)
            hasher.bytes(data.bytes)
        case .date(let date):
            hasher.tag(4)
            let seconds = date.timeIntervalSinceReferenceDate
            hasher.word((seconds == 0 ? 0 : seconds).bitPattern)
        case .uuid(let uuid):
            hasher.tag(5)
            hasher.bytes(uuid.byteArray.span.bytes)
        case .null:
            hasher.tag(6)
        case .url(let url):
            hasher.tag(7)
            hasher.string(url.relative)
            if let base = url.base { hasher.digest(digest(of: .url(base))) } else { hasher.tag(0) }
        case .array(let elements):
            hasher.tag(8)
            hasher.count(elements.count)
            for element in elements { hasher.digest(digest(of: element)) }
        case .dictionary(let dictionary):
            hasher.tag(9)
            hasher.count(dictionary.count)
            // In the writers' key order, so that insertion order does not matter.
            for key in dictionary.sortedKeys {
                hasher.string(key)
                hasher.digest(digest(of: dictionary[key]!))
            }
        case .set(let set):
            hasher.tag(10)
            hasher.count(set.count)
            for member in set.sortedDigests { hasher.digest(member) }
        }
    }

    /// Foundation's equality, checked structurally (to confirm equal digests).
    static func equal(_ a: UserInfoValue, _ b: UserInfoValue) -> Bool {
        switch (a, b) {
        case let (.number(x), .number(y)): return NumberIdentity(x) == NumberIdentity(y)
        case let (.date(x), .date(y)): return x.timeIntervalSinceReferenceDate == y.timeIntervalSinceReferenceDate
        case let (.url(x), .url(y)):
            guard ExactString.equal(x.relative, y.relative) else { return false }
            switch (x.base, y.base) {
            case (nil, nil): return true
            case let (xb?, yb?): return equal(.url(xb), .url(yb))
            default: return false
            }
        case let (.array(x), .array(y)):
            return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case let (.dictionary(x), .dictionary(y)):
            guard x.count == y.count else { return false }
            for (key, member) in x {
                // A key of y found by Swift's String equality must be the same literally.
                guard let position = y.position(forKey: key), ExactString.equal(y[position].key, key),
                      equal(member, y[position].value) else { return false }
            }
            return true
        case let (.set(x), .set(y)):
            guard x.count == y.count else { return false }
            var byDigest: [IdentityDigest: [Int]] = [:]
            for (position, digest) in y.memberDigests.enumerated() { byDigest[digest, default: []].append(position) }
            let members = y.members
            for (position, digest) in x.memberDigests.enumerated() {
                guard let candidates = byDigest[digest],
                      candidates.contains(where: { equal(x.members[position], members[$0]) }) else { return false }
            }
            return true
        default:
            // Strings, data, UUIDs, null: exact equality is Foundation's.
            return a == b
        }
    }

    /// ambiguousSetMembers: no two members Foundation would consider equal.
    static func checkDistinct(_ set: UserInfoSet) throws(UserInfoError) {
        var seen: [IdentityDigest: Int] = [:]
        seen.reserveCapacity(set.count)
        let members = set.members
        for (position, digest) in set.memberDigests.enumerated() {
            if let earlier = seen[digest] {
                // Equal digests: the same to Foundation (a 128-bit collision would be a
                // distinct pair, kept: the check confirms before it refuses).
                guard equal(members[earlier], members[position]) else { continue }
                throw UserInfoError(.ambiguousSetMembers,
                                    "set members \(earlier) and \(position) are equal to Foundation (NSSet would keep one)",
                                    keyPath: PropertyListKeyPath([.index(position)]))
            }
            seen[digest] = position
        }
    }
}

/// A number as Foundation's `isEqual:` sees it, exactly: an integer when the
/// number is integral and within [-2⁶³, 2⁶⁴) — whatever it was written as,
/// a boolean (0 or 1), an integer or a real — else the real itself, with
/// `-0.0` as `0.0` and every NaN as one NaN (Specs/userinfo-value.md, "Sets").
struct NumberIdentity: Hashable {
    private enum Form: Hashable {
        /// An integer in [-2⁶³, 2⁶⁴): its sign and magnitude.
        case integer(negative: Bool, magnitude: UInt64)
        /// A real that no integer in the range equals.
        case real(UInt64)
        case nan
    }
    private let form: Form

    init(_ number: UserInfoNumber) {
        switch number {
        case .bool(let flag):
            form = .integer(negative: false, magnitude: flag ? 1 : 0)
        case .integer(let integer):
            if let signed = integer.int64Value {
                form = .integer(negative: signed < 0, magnitude: signed.magnitude)
            } else {
                form = .integer(negative: false, magnitude: integer.uint64Value!)
            }
        case .real(let real):
            if real.isNaN {
                form = .nan
            } else if real.rounded(.towardZero) == real, real >= -0x1p63, real < 0x1p64 {
                // Integral and in range: the exact integer (doubles this large are integers).
                form = .integer(negative: real < 0, magnitude: real < 0 ? UInt64(-real) : UInt64(real))
            } else {
                form = .real(real.bitPattern)
            }
        }
    }

    func feed(into hasher: inout IdentityHasher) {
        switch form {
        case .integer(let negative, let magnitude):
            // Zero has one form: -0 is not negative.
            hasher.tag(negative && magnitude != 0 ? 1 : 0)
            hasher.word(magnitude)
        case .real(let bits):
            hasher.tag(2)
            hasher.word(bits)
        case .nan:
            hasher.tag(3)
        }
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs.form, rhs.form) {
        case let (.integer(an, am), .integer(bn, bm)): return am == bm && (am == 0 || an == bn)
        default: return lhs.form == rhs.form
        }
    }

    func hash(into hasher: inout Hasher) {
        switch form {
        case .integer(let negative, let magnitude): hasher.combine(negative && magnitude != 0); hasher.combine(magnitude)
        default: hasher.combine(form)
        }
    }
}

/// A 128-bit digest of a value's Foundation identity (``FoundationIdentity``).
/// Deterministic across runs and machines, so it can order set members.
struct IdentityDigest: Hashable, Comparable, Sendable {
    let high: UInt64
    let low: UInt64

    static func < (lhs: Self, rhs: Self) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }
}

/// SipHash-2-4 with 128-bit output and a fixed key: a canonical byte form is
/// fed in (tags, lengths, payloads, members' digests) and digested.
/// The key is public, so the digest is no secret; finding two canonical forms
/// with one digest still takes about 2⁶⁴ work, and equal digests are confirmed.
struct IdentityHasher {
    private var v0: UInt64 = 0x736f_6d65_7073_6575 ^ IdentityHasher.key0
    private var v1: UInt64 = 0x646f_7261_6e64_6f6d ^ IdentityHasher.key1 ^ 0xee
    private var v2: UInt64 = 0x6c79_6765_6e65_7261 ^ IdentityHasher.key0
    private var v3: UInt64 = 0x7465_6462_7974_6573 ^ IdentityHasher.key1
    /// Bytes not yet compressed (fewer than 8), little-endian, and the total length.
    private var tail: UInt64 = 0
    private var tailCount = 0
    private var length = 0

    /// The fixed key ("ActivityCodec id" in ASCII).
    private static let key0: UInt64 = 0x6365_646f_4379_7469
    private static let key1: UInt64 = 0x6469_2063_6365_646f

    mutating func tag(_ byte: UInt8) { byteValue(byte) }

    mutating func count(_ value: Int) { word(UInt64(truncatingIfNeeded: value)) }

    mutating func word(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { byteValue(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func digest(_ digest: IdentityDigest) {
        word(digest.high)
        word(digest.low)
    }

    /// A string: its UTF-8 length, then its bytes.
    mutating func string(_ string: String) {
        string.withUTF8Span { utf8 in
            count(utf8.count)
            bytes(utf8.bytes)
        }
    }

    mutating func bytes(_ buffer: RawSpan) {
        var index = 0
        let count = buffer.byteCount
        // Whole words straight from the buffer once the tail is empty.
        while index < count, tailCount != 0 {
            byteValue(buffer.byte(at: index))
            index += 1
        }
        while index + 8 <= count {
            compress(buffer.word(at: index))
            length += 8
            index += 8
        }
        while index < count {
            byteValue(buffer.byte(at: index))
            index += 1
        }
    }

    @inline(__always)
    private mutating func byteValue(_ byte: UInt8) {
        tail |= UInt64(byte) << UInt64(8 * tailCount)
        tailCount += 1
        length += 1
        if tailCount == 8 {
            compress(tail)
            tail = 0
            tailCount = 0
        }
    }

    @inline(__always)
    private mutating func compress(_ word: UInt64) {
        v3 ^= word
        round()
        round()
        v0 ^= word
    }

    @inline(__always)
    private mutating func round() {
        v0 &+= v1; v1 = v1.rotatedLeft(13); v1 ^= v0; v0 = v0.rotatedLeft(32)
        v2 &+= v3; v3 = v3.rotatedLeft(16); v3 ^= v2
        v0 &+= v3; v3 = v3.rotatedLeft(21); v3 ^= v0
        v2 &+= v1; v1 = v1.rotatedLeft(17); v1 ^= v2; v2 = v2.rotatedLeft(32)
    }

    /// The 128-bit digest (SipHash-2-4-128 finalisation).
    consuming func finalize() -> IdentityDigest {
        let last = tail | UInt64(truncatingIfNeeded: length) << 56
        compress(last)
        v2 ^= 0xee
        for _ in 0..<4 { round() }
        let low = v0 ^ v1 ^ v2 ^ v3
        v1 ^= 0xdd
        for _ in 0..<4 { round() }
        let high = v0 ^ v1 ^ v2 ^ v3
        return IdentityDigest(high: high, low: low)
    }
}

private extension UInt64 {
    @inline(__always)
    func rotatedLeft(_ count: UInt64) -> UInt64 { self << count | self >> (64 - count) }
}
