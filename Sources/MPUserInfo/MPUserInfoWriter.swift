public import FoundationEssentials
@_spi(ByteKit) public import PropertyList
public import UserInfo

/// Writes a userInfo as Apple's "MP" MessagePack (Specs/mp-userinfo.md,
/// "Writer"): the header `4D 50 03 05`, then the dictionary, every value in
/// the smallest form Apple's writer picks for it, so that the bytes equal
/// Apple's for the same value in the same order. Dictionaries are written in
/// their own order (a userInfo read from Apple's bytes is written back byte for
/// byte), sets in canonical order (userinfo-value.md, "Sets").
///
/// ```swift
/// let bytes = try MPUserInfoWriter().writeBytes(["page": 3, "id": .uuid(id)])
/// ```
public struct MPUserInfoWriter: Sendable {
    /// The bounds of what is written (``WriterLimits``): nothing deeper or
    /// larger than a reader with the same limits reads.
    public var limits: WriterLimits

    /// Creates a writer.
    public init(limits: WriterLimits = .default) {
        self.limits = limits
    }

    /// The MP bytes of a userInfo.
    ///
    /// - Throws: ``UserInfoError`` with ``ErrorCode/invalidDate``,
    ///   ``ErrorCode/invalidURL``, ``ErrorCode/ambiguousSetMembers``,
    ///   ``ErrorCode/depthLimitExceeded``, ``ErrorCode/expansionLimitExceeded``,
    ///   or ``ErrorCode/collectionLimitExceeded`` / ``ErrorCode/stringLimitExceeded`` /
    ///   ``ErrorCode/dataLimitExceeded`` past MessagePack's 32-bit lengths,
    ///   with the key path of the value.
    public func writeBytes(_ userInfo: UserInfoDictionary) throws(UserInfoError) -> [UInt8] {
        do {
            try limits.validate()
        } catch {
            throw UserInfoError(.invalidLimits, error.reason)
        }
        var encoder = MPEncoder(maxDepth: limits.maxDepth, meter: ExpansionMeter(limit: limits.maxExpandedBytes))
        for byte in MPUserInfoReader.header { encoder.sink.append(byte) }
        try encoder.encode(.dictionary(userInfo), depth: 0)
        let meter = encoder.meter
        let bytes = encoder.sink.takeBytes()
        // One byte a value: a wide, deep userInfo is small beside its expanded size; it must still read back.
        do { try meter.checkReadable(outputBytes: bytes.count, limits) } catch { throw UserInfoError(error.code, error.reason) }
        return bytes
    }

    /// The MP bytes of a userInfo (see ``writeBytes(_:)``).
    public func write(_ userInfo: UserInfoDictionary) throws(UserInfoError) -> Data {
        Data(try writeBytes(userInfo))
    }
}

/// Appends values to the output; recursion is bounded by `limits.maxDepth`
/// (Specs/architecture.md, "One stack policy": writers recurse within 512).
struct MPEncoder: ~Copyable {
    var sink = ByteSink(capacity: 256)
    let maxDepth: Int
    var meter: ExpansionMeter

    init(maxDepth: Int, meter: ExpansionMeter) {
        self.maxDepth = maxDepth
        self.meter = meter
    }

    /// An array at `depth`: its header, then each element, at its index in
    /// the key path (an array's elements, a set's canonical members).
    @inline(__always)
    private mutating func array(_ elements: [UserInfoValue], depth: Int) throws(UserInfoError) {
        try header(count: elements.count, fix: 0x90, sixteen: 0xDC, thirtyTwo: 0xDD)
        for (position, element) in elements.enumerated() {
            do {
                try encode(element, depth: depth + 1)
            } catch {
                throw error.inside(.index(position))
            }
        }
    }

    mutating func encode(_ value: UserInfoValue, depth: Int) throws(UserInfoError) {
        do throws(PropertyListError) {
            try meter.charge(depth: depth, payload: value.payloadBytes)
        } catch {
            throw UserInfoError(error.code, error.reason)
        }
        switch value {
        case .dictionary(let dictionary):
            try enter(depth)
            try header(count: dictionary.count, fix: 0x80, sixteen: 0xDE, thirtyTwo: 0xDF)
            for (key, member) in dictionary {
                try string(key)
                do {
                    try encode(member, depth: depth + 1)
                } catch {
                    throw error.inside(.key(key))
                }
            }
        case .array(let elements):
            try enter(depth)
            try array(elements, depth: depth)
        case .set(let set):
            try enter(depth)
            let members = try set.canonicalMembersCheckingDistinct()
            // A set: the extension `C7 02 00`, then the array of its members (Specs/mp-userinfo.md).
            sink.append(0xC7); sink.append(0x02); sink.append(0x00)
            try array(members, depth: depth)
        case .string(let string):
            try self.string(string)
        case .data(let data):
            let count = data.count
            // dataLimitExceeded: bin32 holds at most 2³² − 1 bytes.
            guard count <= Int(UInt32.max) else { throw UserInfoError(.dataLimitExceeded, "data of \(count) bytes does not fit MessagePack's bin32") }
            if count <= 0xFF {
                sink.append(0xC4); sink.append(bigEndian: UInt64(count), width: 1)
            } else if count <= 0xFFFF {
                sink.append(0xC5); sink.append(bigEndian: UInt64(count), width: 2)
            } else {
                sink.append(0xC6); sink.append(bigEndian: UInt64(count), width: 4)
            }
            sink.append(data: data)
        case .null:
            sink.append(0xC0)
        case .number(.bool(let flag)):
            sink.append(flag ? 0xC3 : 0xC2)
        case .number(.real(let real)):
            sink.append(0xCB)
            sink.append(bigEndian: real.bitPattern, width: 8)
        case .number(.integer(let integer)):
            if let signed = integer.int64Value, signed < 0 {
                if signed >= -32 {
                    sink.append(UInt8(bitPattern: Int8(signed)))
                } else if signed >= Int64(Int8.min) {
                    sink.append(0xD0); sink.append(bigEndian: UInt64(bitPattern: signed), width: 1)
                } else if signed >= Int64(Int16.min) {
                    sink.append(0xD1); sink.append(bigEndian: UInt64(bitPattern: signed), width: 2)
                } else if signed >= Int64(Int32.min) {
                    sink.append(0xD2); sink.append(bigEndian: UInt64(bitPattern: signed), width: 4)
                } else {
                    sink.append(0xD3); sink.append(bigEndian: UInt64(bitPattern: signed), width: 8)
                }
            } else {
                let unsigned = integer.int64Value.map { UInt64($0) } ?? integer.uint64Value!
                if unsigned <= 0x7F {
                    sink.append(UInt8(unsigned))
                } else if unsigned <= 0xFF {
                    sink.append(0xCC); sink.append(bigEndian: unsigned, width: 1)
                } else if unsigned <= 0xFFFF {
                    sink.append(0xCD); sink.append(bigEndian: unsigned, width: 2)
                } else if unsigned <= 0xFFFF_FFFF {
                    sink.append(0xCE); sink.append(bigEndian: unsigned, width: 4)
                } else {
                    sink.append(0xCF); sink.append(bigEndian: unsigned, width: 8)
                }
            }
        case .uuid(let uuid):
            sink.append(0xD8); sink.append(0x01)
            sink.append(uuid: uuid)
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            // invalidDate: the reader refuses dates outside PropertyListValue.dateRange, so the writer does too.
            guard PropertyListValue.isValidDate(seconds) else { throw UserInfoError(.invalidDate, "date is \(seconds)") }
            sink.append(0xD7); sink.append(0x03)
            // Little-endian, as Apple's writer stores the double (observed).
            var bits = seconds.bitPattern
            for _ in 0..<8 {
                sink.append(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
            }
        case .url(let url):
            try self.url(url, depth: depth)
        }
    }

    /// A URL: `C7 05 00` and its string, or `C7 04 00`, its base, then its string.
    private mutating func url(_ url: UserInfoURL, depth: Int) throws(UserInfoError) {
        // invalidURL: the reader refuses what Foundation cannot parse, so the writer does too.
        guard url.isValid else { throw UserInfoError(.invalidURL, "\"\(url.relative)\" is not a URL Foundation can parse") }
        if let base = url.base {
            try enter(depth)
            sink.append(0xC7); sink.append(0x04); sink.append(0x00)
            try self.url(base, depth: depth + 1)
        } else {
            sink.append(0xC7); sink.append(0x05); sink.append(0x00)
        }
        try string(url.relative)
    }

    /// depthLimitExceeded: a container at `depth` opens level `depth + 1`.
    func enter(_ depth: Int) throws(UserInfoError) {
        guard depth < maxDepth else {
            throw UserInfoError(.depthLimitExceeded, "containers nest deeper than \(maxDepth) (maxDepth)")
        }
    }

    mutating func header(count: Int, fix: UInt8, sixteen: UInt8, thirtyTwo: UInt8) throws(UserInfoError) {
        if count <= 15 {
            sink.append(fix | UInt8(count))
        } else if count <= 0xFFFF {
            sink.append(sixteen); sink.append(bigEndian: UInt64(count), width: 2)
        } else {
            // collectionLimitExceeded: map32 and array32 hold at most 2³² − 1 members.
            guard count <= Int(UInt32.max) else { throw UserInfoError(.collectionLimitExceeded, "\(count) members do not fit MessagePack's 32-bit count") }
            sink.append(thirtyTwo); sink.append(bigEndian: UInt64(count), width: 4)
        }
    }

    mutating func string(_ string: String) throws(UserInfoError) {
        let count = string.utf8.count
        if count <= 31 {
            sink.append(0xA0 | UInt8(count))
        } else if count <= 0xFF {
            sink.append(0xD9); sink.append(bigEndian: UInt64(count), width: 1)
        } else if count <= 0xFFFF {
            sink.append(0xDA); sink.append(bigEndian: UInt64(count), width: 2)
        } else {
            // stringLimitExceeded: str32 holds at most 2³² − 1 bytes.
            guard count <= Int(UInt32.max) else { throw UserInfoError(.stringLimitExceeded, "a string of \(count) bytes does not fit MessagePack's str32") }
            sink.append(0xDB); sink.append(bigEndian: UInt64(count), width: 4)
        }
        string.withUTF8Span { sink.append($0) }
    }
}

/// The size of values' MP forms, without writing them: what the payload
/// layer's cost report charges each entry (Specs/payload.md, "Cost report").
/// MP shares nothing, so an entry costs exactly its key and its value.
package enum MPSize {
    /// A map or array header for `count` members.
    package static func header(count: Int) -> Int { count <= 15 ? 1 : count <= 0xFFFF ? 3 : 5 }

    /// A string's form.
    package static func string(_ string: String) -> Int {
        let count = string.utf8.count
        return count + (count <= 31 ? 1 : count <= 0xFF ? 2 : count <= 0xFFFF ? 3 : 5)
    }

    /// A scalar's form; nil for the containers (dictionaries, arrays, sets), whose size is their members'.
    package static func scalar(_ value: UserInfoValue) -> Int? {
        switch value {
        case .dictionary, .array, .set: return nil
        case .string(let string): return self.string(string)
        case .data(let data): return data.count + (data.count <= 0xFF ? 2 : data.count <= 0xFFFF ? 3 : 5)
        case .null, .number(.bool): return 1
        case .number(.real): return 9
        case .number(.integer(let integer)):
            if let signed = integer.int64Value, signed < 0 {
                return signed >= -32 ? 1 : signed >= Int64(Int8.min) ? 2 : signed >= Int64(Int16.min) ? 3 : signed >= Int64(Int32.min) ? 5 : 9
            }
            let unsigned = integer.int64Value.map { UInt64($0) } ?? integer.uint64Value!
            return unsigned <= 0x7F ? 1 : unsigned <= 0xFF ? 2 : unsigned <= 0xFFFF ? 3 : unsigned <= 0xFFFF_FFFF ? 5 : 9
        case .uuid: return 18
        case .date: return 10
        case .url(let url): return urlSize(url)
        }
    }

    private static func urlSize(_ url: UserInfoURL) -> Int {
        3 + (url.base.map { urlSize($0) } ?? 0) + string(url.relative)
    }
}
