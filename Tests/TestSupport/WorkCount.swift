import Foundation

/// Work counted, not timed (issue 43: no test asserts wall-clock time, which a
/// busy machine breaks): valgrind's callgrind counts the instructions a
/// program executes, the same on every run of the same binary and input,
/// whatever else the machine does.
public enum WorkCount {
    /// A copy of the built `plistkit` without debug information (valgrind 3.19
    /// cannot read Swift's DWARF 5), made once per test process.
    public static let plistkit: String = {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("plistkit-callgrind-\(getpid())").path
        let built = Paths.product("plistkit").path
        let result = try? launch(which("strip") ?? "/usr/bin/strip", ["--strip-debug", "-o", copy, built])
        return result?.status == 0 ? copy : built
    }()

    /// Instructions `executable arguments…` executes, and its exit status.
    public static func instructions(_ executable: String, _ arguments: [String], stdin: Data? = nil) throws -> (count: Int, status: Int32) {
        guard let valgrind = which("valgrind") else {
            throw CountFailure(message: "valgrind is not installed (apt-get install -y valgrind; .ci/setup installs it)")
        }
        let result = try launch(valgrind, ["--tool=callgrind", "--callgrind-out-file=/dev/null", executable] + arguments, stdin: stdin)
        let text = String(decoding: result.stderr, as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.contains("Collected :") }),
              let count = Int(line.split(separator: " ").last ?? "") else {
            throw CountFailure(message: "no count in \(text.suffix(500))")
        }
        return (count, result.status)
    }

    /// Instructions `plistkit arguments…` executes, each `{}` in the arguments
    /// naming a file that holds `input`.
    public static func plistkit(_ arguments: [String], input: [UInt8]) throws -> (count: Int, status: Int32) {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("input")
        try Data(input).write(to: file)
        return try instructions(plistkit, arguments.map { $0 == "{}" ? file.path : $0 })
    }

    /// Instructions `plistkit VERB` executes on each of `inputs` at once
    /// (`plistkit lint --jobs 1 FILE…`), and its exit status.
    public static func plistkit(_ verb: [String], inputs: [[UInt8]]) throws -> (count: Int, status: Int32) {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for (position, input) in inputs.enumerated() {
            let file = directory.appendingPathComponent("input-\(position)")
            try Data(input).write(to: file)
            paths.append(file.path)
        }
        return try instructions(plistkit, verb + paths)
    }

    /// What `plistkit` executes to start and answer for a tiny valid file: the
    /// floor the bounds below are counted above. A plain `lint FILE` skips the
    /// argument parser (Specs/plistkit.md, "Start-up"); for other arguments,
    /// ``startup(for:)``.
    public static let startup: Int = {
        (try? plistkit(["lint", "{}"], input: tinyInput).count) ?? 0
    }()

    /// What `plistkit arguments…` executes to start and answer with a tiny
    /// valid property list for each `{}`: the floor of a bound on those
    /// arguments, whose parsing costs what the verb's options make it cost
    /// (in a debug build, several times the rest of a tiny file's run).
    /// Counted once per argument list.
    public static func startup(for arguments: [String]) -> Int {
        startupLock.lock()
        defer { startupLock.unlock() }
        if let known = startups[arguments] { return known }
        let count = (try? plistkit(arguments, input: tinyInput).count) ?? 0
        startups[arguments] = count
        return count
    }

    private static let tinyInput = Array("<plist><true/></plist>".utf8)
    private static let startupLock = NSLock()
    nonisolated(unsafe) private static var startups: [[String]: Int] = [:]

    public struct CountFailure: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }
}
