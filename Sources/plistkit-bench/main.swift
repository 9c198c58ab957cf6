// plistkit-bench: ActivityCodec's side of the benchmark protocol shared with the
// peers in Benchmarks/ (Foundation, libplist, plistlib). See Benchmarks/README.md.
//
//   plistkit-bench OP FORMAT FILE ITERS
//     OP      decode | encode | keyed-decode | keyed-encode | userinfo-decode | mp-decode | mp-floor | mp-encode | value-floor
//     FORMAT  binary | xml   (the format of FILE's documents; encode writes the same format;
//             mp-decode times reading the same userInfo values written as MP beforehand,
//             mp-encode writing them as MP: the documents are plain-profile userInfo;
//             userinfo-decode reads FILE's documents into those userInfo values; mp-floor
//             only builds those values anew, from decoded ones: the floor of MP decoding)
//     FILE    one document, or a pack of many (magic "PLPACK01", u32 LE count,
//             then count × (u32 LE length, bytes))
//
// Reads FILE (untimed), runs one untimed warm-up iteration, then ITERS timed
// iterations on the monotonic clock (one iteration = every document once; decoded
// trees stay alive until the clock stops; encode serialises trees decoded
// beforehand), and prints one JSON line; "messages" is the number of documents
// per iteration (a pack's count), so median_s / messages is the time per document.
import DocumentFormats
import FoundationEssentials
import KeyedArchive
import MPUserInfo
@_spi(ByteKit) import PropertyList
import UserInfo
#if canImport(Glibc)
import Glibc
#endif

struct Usage: Error, CustomStringConvertible {
    let description: String
}

/// The documents of FILE: a pack's members, or the file itself.
func documents(of bytes: [UInt8]) throws -> [[UInt8]] {
    guard bytes.starts(with: Array("PLPACK01".utf8)) else { return [bytes] }
    func u32(_ at: Int) throws -> Int {
        guard at + 4 <= bytes.count else { throw Usage(description: "truncated pack") }
        return Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
    }
    let count = try u32(8)
    var documents: [[UInt8]] = []
    var offset = 12
    for _ in 0..<count {
        let length = try u32(offset)
        guard offset + 4 + length <= bytes.count else { throw Usage(description: "truncated pack") }
        documents.append(Array(bytes[(offset + 4)..<(offset + 4 + length)]))
        offset += 4 + length
    }
    return documents
}

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// One iteration's work: returns the bytes it produced (encode) and keeps what
/// it decoded alive in `sink` until the caller drops it after the clock stops.
typealias Iteration = (_ sink: inout [Any]) throws -> Int

func iteration(op: String, format name: String, documents: [[UInt8]]) throws -> Iteration {
    guard let format = DocumentFormat(rawValue: name) else { throw Usage(description: "FORMAT is binary or xml") }
    let output = format
    switch op {
    case "decode":
        return { sink in
            for document in documents { sink.append(try Document.read(document, as: format)) }
            return 0
        }
    case "encode":
        let values = try documents.map { try Document.read($0, as: format) }
        return encoding(values) { try Document.writeBytes($0, as: output) }
    case "keyed-decode":
        return { sink in
            for document in documents {
                let archive = try Document.read(document, as: format)
                sink.append(try KeyedArchiveReader().unarchive(archive, inputBytes: document.count))
            }
            return 0
        }
    case "keyed-encode":
        let values = try documents.map { try KeyedArchiveReader().unarchive(try Document.read($0, as: format), inputBytes: $0.count) }
        // As `plistkit archive` writes it (binary: straight into the binary object table).
        return encoding(values) { try Document.archiveBytes($0, as: output) }
    case "userinfo-decode":
        // The same userInfo from its property list: read, then the plain profile's values.
        return { sink in
            for document in documents {
                let plist = try Document.read(document, as: format)
                sink.append(try UserInfoProfile.plain.userInfo(from: plist, limits: .default, inputBytes: document.count))
            }
            return 0
        }
    case "mp-decode":
        let mp = try userInfos(documents, format: format).map { try MPUserInfoWriter().writeBytes($0) }
        return { sink in
            for document in mp { sink.append(try MPUserInfoReader().read(document)) }
            return 0
        }
    case "mp-floor":
        // The floor of any reader producing these values: building them alone —
        // fresh strings from UTF-8 bytes, fresh data, arrays and dictionaries
        // (keys hashed as the dictionary indexes them) — with no bytes parsed
        // and no rule checked.
        let values = try userInfos(documents, format: format)
        return { sink in
            for value in values { sink.append(rebuild(.dictionary(value))) }
            return 0
        }
    case "value-floor":
        // The floor of any reader producing PropertyListValue trees
        // (ValueFloorPlan): the same trees built from a plan made beforehand.
        let plans = try documents.map { ValueFloorPlan(try Document.read($0, as: format)) }
        // Untimed: the plan builds the very trees it was made from.
        for plan in plans { precondition(plan.build() == plan.value, "the value floor built another tree") }
        return { sink in
            for plan in plans { sink.append(plan.build()) }
            return 0
        }
    case "mp-encode":
        let values = try userInfos(documents, format: format)
        return encoding(values) { try MPUserInfoWriter().writeBytes($0) }
    default:
        throw Usage(description: "OP is decode, encode, keyed-decode, keyed-encode, userinfo-decode, mp-decode, mp-floor, mp-encode or value-floor")
    }
}

/// An encode iteration: each value through `encode`, the bytes kept alive in
/// the sink and their total returned.
func encoding<Value>(_ values: [Value], _ encode: @escaping (Value) throws -> [UInt8]) -> Iteration {
    { sink in
        var total = 0
        for value in values {
            let bytes = try encode(value)
            total += bytes.count
            sink.append(bytes)
        }
        return total
    }
}

/// A fresh copy of a userInfo value, every string and data value built anew (the `mp-floor` op).
func rebuild(_ value: UserInfoValue) -> UserInfoValue {
    func fresh(_ string: String) -> String {
        var string = string
        return string.withUTF8 { String(decoding: $0, as: UTF8.self) }
    }
    switch value {
    case .string(let string): return .string(fresh(string))
    case .data(let data): return .data(Data(data.bytes.array))
    case .array(let elements):
        var copy: [UserInfoValue] = []
        copy.reserveCapacity(elements.count)
        for element in elements { copy.append(rebuild(element)) }
        return .array(copy)
    case .dictionary(let dictionary):
        var copy = UserInfoDictionary(minimumCapacity: dictionary.count)
        for (key, member) in dictionary { _ = copy.insertNew(rebuild(member), forKey: fresh(key)) }
        return .dictionary(copy)
    default: return value
    }
}

/// The documents as userInfo dictionaries (plain profile: the property list is the userInfo).
func userInfos(_ documents: [[UInt8]], format: DocumentFormat) throws -> [UserInfoDictionary] {
    try documents.map { document in
        let value = try UserInfoProfile.plain.userInfo(from: try Document.read(document, as: format), limits: .default, inputBytes: document.count)
        guard case .dictionary(let dictionary) = value else { throw Usage(description: "a document is not a dictionary") }
        return dictionary
    }
}

func main() throws {
    let arguments = CommandLine.arguments
    guard arguments.count == 5, let iterations = Int(arguments[4]), iterations > 0 else {
        throw Usage(description: "usage: plistkit-bench decode|encode|keyed-decode|keyed-encode|userinfo-decode|mp-decode|mp-floor|mp-encode|value-floor binary|xml FILE ITERS")
    }
    let (op, format, file) = (arguments[1], arguments[2], arguments[3])
    // PLISTKIT_BENCH_FLOOR=value: the benchmark's "value-floor" peer, which
    // answers `decode` with the value-floor op (compare.sh times it beside
    // the decoders, under its own name).
    let asValueFloor = op == "decode" && getenv("PLISTKIT_BENCH_FLOOR").map { String(cString: $0) } == "value"
    let peer = asValueFloor ? "value-floor" : "activitycodec"
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
    let documents = try documents(of: bytes)
    let work = try iteration(op: asValueFloor ? "value-floor" : op, format: format, documents: documents)
    var warmUp: [Any] = []
    let outBytes = try work(&warmUp)
    warmUp = []
    var times: [Double] = []
    for _ in 0..<iterations {
        var sink: [Any] = []
        sink.reserveCapacity(16)
        let start = now()
        _ = try work(&sink)
        times.append(now() - start)
        withExtendedLifetime(sink) {}
    }
    times.sort()
    let median = times.count % 2 == 1 ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
    let name = file.split(separator: "/").last.map(String.init) ?? file
    print(#"{"peer":"\#(peer)","op":"\#(op)","format":"\#(format)","file":"\#(name)","iters":\#(iterations),"messages":\#(documents.count),"bytes":\#(bytes.count),"median_s":\#(median),"min_s":\#(times.first!),"max_s":\#(times.last!),"out_bytes":\#(outBytes)}"#)
}

do {
    try main()
} catch {
    var message = "plistkit-bench: \(error)\n"
    _ = message.withUTF8 { write(2, $0.baseAddress, $0.count) }
    exit(1)
}
