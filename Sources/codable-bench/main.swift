// codable-bench: a Handoff app's own path, Codable state → wire bytes → state,
// ours beside Foundation's coders, in one process (Benchmarks/README.md, "Codable").
//
//   codable-bench [ROUNDS [ITERATIONS]]        the table: every path, both states
//   codable-bench one PATH OP STATE ITERATIONS one case only (for valgrind's counts)
//     PATH   foundation-plist | foundation-json | mp | mp-direct | keyed | payload | floor
//     OP     encode | decode
//     STATE  handoff-trip | readme-trip
//
// A round times ITERATIONS operations of each case in turn (cases interleaved, so
// that the machine's drift falls on all of them); the table gives the median
// over ROUNDS of µs per operation, and the smallest and largest round.
import FoundationEssentials
import Handoff
import KeyedArchive
import MPUserInfo
import UserInfo
#if canImport(Glibc)
import Glibc
#endif

struct Usage: Error, CustomStringConvertible {
    let description: String
}

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// The sender's and receiver's codecs of the README's example.
enum Devices {
    static let mac: PayloadCodec = {
        var codec = PayloadCodec(layout: .macOS(home: "/Users/ada", containers: ["iCloud.com.example.Planner"]))
        codec.versioning = PayloadVersioning(key: "com.example.planner.version", current: PayloadVersion(1, 0))
        return codec
    }()
    static let phone: PayloadCodec = {
        var codec = PayloadCodec(layout: .iOS(containers: ["iCloud.com.example.Planner"]))
        codec.versioning = mac.versioning
        return codec
    }()
}

/// One way from a state to bytes and back.
enum CodingPath: String, CaseIterable {
    case foundationPlist = "foundation-plist"
    case foundationJSON = "foundation-json"
    case mp
    case mpDirect = "mp-direct"
    case keyed
    case payload
    /// The floor of every Codable path: Swift's Codable dispatch alone (Floor.swift).
    case floor

    var title: String {
        switch self {
        case .foundationPlist: "Foundation `PropertyListEncoder`/`Decoder` (binary)"
        case .foundationJSON: "Foundation `JSONEncoder`/`Decoder`"
        case .mp: "ours: `UserInfoEncoder` + `MPUserInfoWriter` / `MPUserInfoReader` + `UserInfoDecoder`"
        case .mpDirect: "ours: `MPUserInfoEncoder` / `MPUserInfoDecoder` (direct)"
        case .keyed: "ours: the same through a keyed archive (binary)"
        case .payload: "ours: `PayloadCodec` (container + MP, versioning, URL translation)"
        case .floor: "the Codable floor: walking the value, keeping nothing / constants for every request"
        }
    }

    func encode<State: Codable>(_ state: State) throws -> Data {
        switch self {
        case .floor:
            let encoder = FloorEncoder()
            try encoder.visit(state)
            return Data(count: encoder.visited & 1)
        case .foundationPlist:
            let encoder = PropertyListEncoder()
            encoder.outputFormat = .binary
            return try encoder.encode(state)
        case .foundationJSON:
            return try JSONEncoder().encode(state)
        case .mp:
            return try MPUserInfoWriter().write(try UserInfoEncoder().encodeDictionary(state))
        case .mpDirect:
            return try MPUserInfoEncoder().encode(state)
        case .keyed:
            return try KeyedArchiveWriter().write(try UserInfoEncoder().encode(state))
        case .payload:
            return try Devices.mac.encode(state, activity: ActivityPayload(activityType: "com.example.planner.edit")).data
        }
    }

    func decode<State: Codable>(_ type: State.Type, from data: Data) throws -> State {
        switch self {
        case .floor:
            // About the state's own shape: as many elements as its collections hold.
            return try FloorDecoder(elements: type == HandoffTrip.self ? 4 : 2).constant(type)
        case .foundationPlist:
            return try PropertyListDecoder().decode(type, from: data)
        case .foundationJSON:
            return try JSONDecoder().decode(type, from: data)
        case .mp:
            return try UserInfoDecoder().decode(type, from: .dictionary(try MPUserInfoReader().read(data)))
        case .mpDirect:
            return try MPUserInfoDecoder().decode(type, from: data)
        case .keyed:
            return try UserInfoDecoder().decode(type, from: try KeyedArchiveReader().read(data))
        case .payload:
            return try Devices.phone.decode(type, from: data).state
        }
    }
}

enum Operation: String { case encode, decode }

/// A state under test, with its name.
struct Subject: Sendable {
    let name: String
    let encode: @Sendable (CodingPath) throws -> Data
    let decode: @Sendable (CodingPath, Data) throws -> Any
    /// Whether `decoded` is the state encoded (the payload path moves the document's URL into the receiver's container).
    let check: @Sendable (CodingPath, Any) -> Bool

    init<State: Codable & Equatable & Sendable>(_ name: String, _ state: State, documentOf: @escaping @Sendable (State) -> URL) {
        self.name = name
        encode = { path in try path.encode(state) }
        decode = { path, data in try path.decode(State.self, from: data) }
        check = { path, decoded in
            guard let decoded = decoded as? State else { return false }
            if path == .floor { return true }
            if path == .payload {
                return documentOf(decoded).path.hasPrefix("/private/var/mobile/Library/Mobile Documents/iCloud~com~example~Planner/")
            }
            return decoded == state
        }
    }

    static let all = [
        Subject("handoff-trip", HandoffTrip.sample, documentOf: \.document),
        Subject("readme-trip", TripState.sample, documentOf: \.document),
    ]
}

/// ITERATIONS operations; returns the seconds they took.
func time(_ subject: Subject, _ path: CodingPath, _ operation: Operation, _ encoded: Data, iterations: Int) throws -> Double {
    var sink = 0
    let start = now()
    switch operation {
    case .encode:
        for _ in 0..<iterations { sink &+= try subject.encode(path).count }
    case .decode:
        for _ in 0..<iterations { withExtendedLifetime(try subject.decode(path, encoded)) { sink &+= 1 } }
    }
    let elapsed = now() - start
    withExtendedLifetime(sink) {}
    return elapsed
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func format(_ value: Double) -> String { String(Int((value * 10).rounded())).inserting(decimalPointAt: 1) }

extension String {
    /// "123" with one decimal place: "12.3".
    func inserting(decimalPointAt places: Int) -> String {
        let padded = count <= places ? String(repeating: "0", count: places + 1 - count) + self : self
        return padded.dropLast(places) + "." + padded.suffix(places)
    }
}

func table(rounds: Int, iterations: Int) throws {
    var encoded: [String: Data] = [:]
    for subject in Subject.all {
        for path in CodingPath.allCases {
            let data = try subject.encode(path)
            guard subject.check(path, try subject.decode(path, data)) else {
                throw Usage(description: "\(subject.name) through \(path.rawValue) does not come back equal")
            }
            encoded[subject.name + path.rawValue] = data
        }
    }
    // seconds[state + path + op] per round
    var seconds: [String: [Double]] = [:]
    for _ in 0..<rounds {
        for subject in Subject.all {
            for path in CodingPath.allCases {
                for operation in [Operation.encode, .decode] {
                    let elapsed = try time(subject, path, operation, encoded[subject.name + path.rawValue]!, iterations: iterations)
                    seconds[subject.name + path.rawValue + operation.rawValue, default: []].append(elapsed / Double(iterations) * 1e6)
                }
            }
        }
    }
    print("\(rounds) rounds of \(iterations) operations; µs per operation: median of the rounds (smallest–largest round)\n")
    for subject in Subject.all {
        print("### \(subject.name)\n")
        print("| path | bytes | encode µs | decode µs |")
        print("| --- | ---: | ---: | ---: |")
        for path in CodingPath.allCases {
            let cells = [Operation.encode, .decode].map { operation -> String in
                let rounds = seconds[subject.name + path.rawValue + operation.rawValue]!
                return "\(format(median(rounds))) (\(format(rounds.min()!))–\(format(rounds.max()!)))"
            }
            print("| \(path.title) | \(encoded[subject.name + path.rawValue]!.count) | \(cells[0]) | \(cells[1]) |")
        }
        print()
    }
}

func main() throws {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == "one" {
        guard arguments.count == 5, let path = CodingPath(rawValue: arguments[1]), let operation = Operation(rawValue: arguments[2]),
              let subject = Subject.all.first(where: { $0.name == arguments[3] }), let iterations = Int(arguments[4]), iterations > 0
        else { throw Usage(description: "usage: codable-bench one PATH OP STATE ITERATIONS") }
        let data = try subject.encode(path)
        _ = try time(subject, path, operation, data, iterations: iterations)
        return
    }
    guard arguments.count <= 2, let rounds = Int(arguments.first ?? "5"), let iterations = Int(arguments.dropFirst().first ?? "5000"),
          rounds > 0, iterations > 0
    else { throw Usage(description: "usage: codable-bench [ROUNDS [ITERATIONS]] | one PATH OP STATE ITERATIONS") }
    try table(rounds: rounds, iterations: iterations)
}

do {
    try main()
} catch {
    var message = "codable-bench: \(error)\n"
    _ = message.withUTF8 { write(2, $0.baseAddress, $0.count) }
    exit(1)
}
