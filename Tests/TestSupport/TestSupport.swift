import Foundation
import PropertyList

/// Paths of the package and of the built products, for tests that read the
/// corpus or run the built tools.
public enum Paths {
    /// The package root (this file is Tests/PropertyListTests/TestSupport.swift).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static let golden = packageRoot.appendingPathComponent("Corpus/golden")
    public static let regressions = packageRoot.appendingPathComponent("Corpus/regressions")

    /// The directory holding the test bundle and the package's executables.
    public static let products: URL = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var url = URL(fileURLWithPath: executable).deletingLastPathComponent()
        // On Linux the test runner is `<products>/<Package>PackageTests.xctest`.
        while url.path != "/", !FileManager.default.fileExists(atPath: url.appendingPathComponent("foundation-peer").path) {
            url.deleteLastPathComponent()
        }
        return url
    }()

    public static func product(_ name: String) -> URL { products.appendingPathComponent(name) }

    /// `../shared`, beside the package (in CI as in a checkout).
    public static let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")

    /// A shared corpus folder is missing: a check that would be skipped fails instead.
    public struct MissingCorpus: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "\(path) is missing: a skipped check is a failed check" }
    }

    /// Every regular file of both shared corpora (../shared/realworld/files,
    /// the files Apple's tools wrote, and ../shared/conformance), sorted.
    public static func sharedCorpusFiles() throws -> [URL] {
        var files: [URL] = []
        for folder in ["realworld/files", "conformance"] {
            let root = shared.appendingPathComponent(folder)
            guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
                throw MissingCorpus(path: root.path)
            }
            for case let url as URL in enumerator where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                files.append(url)
            }
        }
        return files.sorted { $0.path < $1.path }
    }
}

/// Builds a `bplist00` file from object encodings laid out in order after the
/// header, with an offset table and trailer computed from them. Tests write the
/// object bytes by hand from the spec; this only does the bookkeeping.
public func bplist(_ objects: [[UInt8]], top: Int = 0, offsetSize: Int? = nil, referenceSize: Int = 1) -> [UInt8] {
    var bytes = Array("bplist00".utf8)
    var offsets: [Int] = []
    for object in objects {
        offsets.append(bytes.count)
        bytes += object
    }
    let tableOffset = bytes.count
    let width = offsetSize ?? (tableOffset < 256 ? 1 : tableOffset < 65536 ? 2 : 4)
    for offset in offsets { bytes += bigEndian(UInt64(offset), width: width) }
    bytes += [0, 0, 0, 0, 0, 0, UInt8(width), UInt8(referenceSize)]
    bytes += bigEndian(UInt64(objects.count), width: 8)
    bytes += bigEndian(UInt64(top), width: 8)
    bytes += bigEndian(UInt64(tableOffset), width: 8)
    return bytes
}

public func bigEndian(_ value: UInt64, width: Int) -> [UInt8] {
    (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (UInt64($0) * 8)) }
}

/// The result a thread hands back, published by the semaphore.
private final class ThreadResult<T>: @unchecked Sendable {
    var value: T?
    let done = DispatchSemaphore(value: 0)
}

/// Runs `body` on a new thread (with a stack of `stackSize` bytes, if given)
/// and returns what it returned: for a test of a small stack, or of state a
/// thread keeps (a new thread has none).
public func onNewThread<T: Sendable>(stackSize: Int? = nil, _ body: @escaping @Sendable () -> T) -> T {
    let result = ThreadResult<T>()
    let thread = Thread {
        result.value = body()
        result.done.signal()
    }
    if let stackSize { thread.stackSize = stackSize }
    thread.start()
    result.done.wait()
    return result.value!
}

/// Decodes with the binary reader, returning the error (or nil when accepted).
public func binaryError(_ bytes: [UInt8], limits: PropertyListLimits = .default) -> PropertyListError? {
    do {
        _ = try BinaryPropertyListReader(limits: limits).read(bytes)
        return nil
    } catch {
        return error
    }
}

// MARK: - Typed JSON of the peers (Tests/PeerTools, Specs/golden-files.md)

public enum PeerTypedJSON {
    public struct Malformed: Error, CustomStringConvertible { public let description: String }

    /// Parses typed JSON text into a value.
    public static func value(from data: Data) throws -> PropertyListValue {
        try value(fromObject: try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
    }

    public static func value(fromObject object: Any) throws -> PropertyListValue {
        guard let node = object as? [String: Any], let type = node["type"] as? String else {
            throw Malformed(description: "not a typed node: \(object)")
        }
        let raw = node["value"]
        switch type {
        case "null": return .null
        case "string": return .string(try cast(raw, String.self))
        case "bool": return .bool(try cast(raw, Bool.self))
        case "integer":
            guard let integer = PropertyListInteger(decimal: try cast(raw, String.self)) else { throw Malformed(description: "integer \(String(describing: raw))") }
            return .integer(integer)
        case "real":
            guard let real = Double(try cast(raw, String.self)) else { throw Malformed(description: "real \(String(describing: raw))") }
            return .real(real)
        case "data":
            guard let data = Data(base64Encoded: try cast(raw, String.self)) else { throw Malformed(description: "base64") }
            return .data(data)
        case "date": return .date(try date(try cast(raw, String.self)))
        case "uid":
            guard let uid = UInt32(try cast(raw, String.self)) else { throw Malformed(description: "uid") }
            return .uid(uid)
        case "array": return .array(try cast(raw, [Any].self).map(value(fromObject:)))
        case "dict":
            var dictionary = PropertyListDictionary()
            for (key, member) in try cast(raw, [String: Any].self) {
                dictionary[key] = try value(fromObject: member)
            }
            return .dictionary(dictionary)
        default: throw Malformed(description: "unknown type \(type)")
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS.ffffffZ` to a date.
    public static func date(_ text: String) throws -> Date {
        let parts = text.dropLast().split(separator: ".")
        let fields = parts[0].split(whereSeparator: { "-T:".contains($0) }).map { Int($0)! }
        let civil = CivilTime(year: fields[0], month: fields[1], day: fields[2], hour: fields[3], minute: fields[4], second: fields[5])
        let micros = parts.count > 1 ? Double(String(parts[1]).padding(toLength: 6, withPad: "0", startingAt: 0))! : 0
        return Date(timeIntervalSinceReferenceDate: Double(civil.secondsSinceReference) + micros / 1_000_000)
    }

    private static func cast<T>(_ raw: Any?, _ type: T.Type) throws -> T {
        guard let value = raw as? T else { throw Malformed(description: "expected \(T.self), got \(String(describing: raw))") }
        return value
    }
}

/// Equality as the peers can report it: dates to the microsecond, NaNs equal
/// whatever their payload; everything else exact.
public func peerEqual(_ a: PropertyListValue, _ b: PropertyListValue) -> Bool {
    switch (a, b) {
    case let (.date(x), .date(y)):
        let micros = { (d: Date) in (d.timeIntervalSinceReferenceDate * 1_000_000).rounded() }
        return abs(micros(x) - micros(y)) <= 1
    case let (.real(x), .real(y)):
        return x.isNaN && y.isNaN || x.bitPattern == y.bitPattern
    case let (.array(x), .array(y)):
        return x.count == y.count && zip(x, y).allSatisfy(peerEqual)
    case let (.dictionary(x), .dictionary(y)):
        return x.count == y.count && x.allSatisfy { entry in y[entry.key].map { peerEqual(entry.value, $0) } ?? false }
    default:
        return a == b
    }
}

/// Runs a program and returns its exit status, standard output and error.
@discardableResult
public func run(_ executable: String, _ arguments: [String], stdin: Data? = nil) throws -> (status: Int32, stdout: Data, stderr: Data) {
    let result = try launch(executable, arguments, stdin: stdin)
    return (result.status, result.stdout, result.stderr)
}

/// What a finished program did: its exit status, or the signal that ended it.
public struct LaunchResult: Sendable {
    /// The exit status, or the signal number when ``signaled``.
    public var status: Int32
    /// True when a signal ended the program (a trap, a crash).
    public var signaled: Bool
    public var stdout: Data
    public var stderr: Data
}

/// Runs a program (in `directory` when given); standard output goes to
/// `stdout` when given (a device, a closed pipe), else it is captured.
public func launch(_ executable: String, _ arguments: [String], stdin: Data? = nil, stdout: FileHandle? = nil,
                   in directory: URL? = nil) throws -> LaunchResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = stdout ?? out
    process.standardError = err
    process.standardInput = stdin == nil ? FileHandle.nullDevice : input
    try process.run()
    if let stdin {
        input.fileHandleForWriting.write(stdin)
        try input.fileHandleForWriting.close()
    }
    // Read both pipes before waiting so a full pipe cannot block the child.
    nonisolated(unsafe) var errData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    let outData = stdout == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
    group.wait()
    process.waitUntilExit()
    return LaunchResult(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
                        stdout: outData, stderr: errData)
}

/// Finds a program on PATH, or nil.
public func which(_ name: String) -> String? {
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
        let path = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

/// One field of an activity container, built by hand from
/// Specs/activity-container.md: its word (`length | 0x01000000`, little-endian)
/// and bytes, or the zero word of an absent field.
public func containerField(_ bytes: [UInt8]?) -> [UInt8] {
    guard let bytes else { return [0, 0, 0, 0] }
    let count = UInt32(bytes.count)
    return [UInt8(truncatingIfNeeded: count), UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count >> 16), 0x01] + bytes
}

/// An activity container built by hand from Specs/activity-container.md:
/// header 1, no title, the userInfo bytes, the JSON of the activity type, no
/// URL, no streams (tests build wire forms without the code under test).
public func activityContainer(userInfo: [UInt8], type: String = "com.example.x") -> [UInt8] {
    let json = Array(#"{"teamID":"","type":"\#(type)"}"#.utf8)
    return [1, 0, 0, 0] + containerField(nil) + containerField(userInfo) + containerField(json) + containerField(nil) + containerField(nil)
}

/// `bytes` changed by one edit per seed: a byte replaced, a bit flipped, a run
/// of up to nine bytes removed, or a byte inserted, each where the seed says
/// (never left empty: an edit that would empty it starts again from `bytes`).
public func mutated(_ bytes: [UInt8], by seeds: [Int]) -> [UInt8] {
    var mutant = bytes
    for seed in seeds {
        let position = seed % mutant.count
        switch (seed / mutant.count) % 4 {
        case 0: mutant[position] = UInt8(truncatingIfNeeded: seed >> 20)
        case 1: mutant[position] ^= 1 << ((seed >> 20) % 8)
        case 2: mutant.removeSubrange(position..<min(mutant.count, position + 1 + (seed >> 20) % 9))
        default: mutant.insert(UInt8(truncatingIfNeeded: seed >> 20), at: position)
        }
        if mutant.isEmpty { mutant = bytes }
    }
    return mutant
}
