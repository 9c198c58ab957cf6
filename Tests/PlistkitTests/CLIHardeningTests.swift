import Foundation
import PropertyBased
import PropertyList
import TestSupport
import Testing

/// The CLI's contract on hostile options and outputs (Specs/plistkit.md,
/// "Errors" and "Output"): exit 0, 1 or 64, never a signal; exactly one line
/// on standard error for a failure, whatever the input and its names hold;
/// `-o` never replaces anything but a regular file; a failed write is a failure.
@Suite("plistkit: no trap, one line, checked output")
struct CLIHardeningTests {
    static let plistkit = CLITests.plistkit
    static let sample = Paths.packageRoot.appendingPathComponent("Corpus/samples/trip.payload").path
    static let plist = Paths.golden.appendingPathComponent("plistlib/scalars.bplist").path

    /// The checks every run must pass; returns a description of what broke, or nil.
    static func contractBroken(_ result: LaunchResult, lint: Bool = false, diff: Bool = false) -> String? {
        if result.signaled { return "ended by signal \(result.status)" }
        // diff: 1 means the inputs differ (no error line), 2 an unreadable input (Specs/plistkit.md, "Diff").
        if diff, result.status == 1 { return result.stderr.isEmpty ? nil : "diff wrote to stderr for a difference" }
        guard [0, 1, 64].contains(result.status) || (diff && result.status == 2) else { return "exit status \(result.status)" }
        let stderr = String(decoding: result.stderr, as: UTF8.self)
        let lines = stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        if !stderr.isEmpty, !stderr.hasSuffix("\n") { return "stderr does not end a line: \(stderr.debugDescription)" }
        // lint reports each file on stdout; its failures need no line on stderr.
        if result.status != 0, lines.count != 1, !(lint && lines.isEmpty && result.status == 1) { return "\(lines.count) lines on stderr: \(stderr.debugDescription)" }
        if result.status == 0, !lines.allSatisfy({ $0.hasPrefix("plistkit: warning: ") }) { return "stderr on success: \(stderr.debugDescription)" }
        if let line = lines.first(where: { $0.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) }) {
            return "a control character on stderr: \(line.debugDescription)"
        }
        return nil
    }

    @Test("the two reported commands: a size that overflows and an empty version key are usage errors, one line each")
    func reportedCommands() throws {
        let cases: [([String], String)] = [
            (["payload", "check", Self.sample, "--budget", "9000000000000000MiB"], "plistkit: usage: --budget \"9000000000000000MiB\" is not a size"),
            (["payload", "check", Self.sample, "--version-key", "", "--supports", "1.x"], "plistkit: usage: --version-key must not be empty"),
        ]
        for (arguments, prefix) in cases {
            let result = try launch(Self.plistkit, arguments)
            #expect(Self.contractBroken(result) == nil, "\(arguments)")
            #expect(result.status == 64)
            #expect(String(decoding: result.stderr, as: UTF8.self).hasPrefix(prefix))
        }
    }

    @Test("sizes: digits and a unit, overflow refused, the largest Int accepted")
    func sizes() throws {
        for (text, fine) in [("9223372036854775807", true), ("9223372036854775807B", true), ("9223372036854775808", false),
                             ("8796093022207MiB", true), ("8796093022208MiB", false), ("+5", false), ("-1", false), ("1e3", false),
                             ("3 KB", false), ("", false), ("KB", false), ("3kb", false), ("١٢", false), ("0", true)] {
            let result = try launch(Self.plistkit, ["payload", "check", Self.sample, "--budget", text, "--layout", "ios", "--container", "iCloud.com.example.Planner"])
            #expect(Self.contractBroken(result) == nil, "\(text)")
            #expect(result.status == (fine ? 0 : 64), "\(text): \(String(decoding: result.stderr, as: UTF8.self))")
        }
    }

    /// Option values a hostile or careless caller could pass.
    static let sizes = ["", "0", "3KB", "3072", "64KiB", "1MiB", "9000000000000000MiB", "99999999999999999999", "-1", "+5", "1e3",
                        "3 KB", "3kb", "9223372036854775807", "9223372036854775808", "18446744073709551616B", "B", "\u{85}1", "1\n"]
    static let keys = ["", "v", "com.example.planner.version", " ", "a\nb", "é", "\u{1B}[31m", String(repeating: "k", count: 5000), "$null"]
    static let supports = ["1.x", "0.x", "x", ".x", "-1.x", "01.x", "1.0", "1.2.3", "999999999.x", "9999999999.x", "", "1.x\n", "1.1"]
    static let versions = ["1.0", "0.0", "2.1", "-1.0", "1", "1.0.0", "01.0", "1.-0", "999999999.999999999", "9999999999.0", ""]
    static let layouts = ["ios", "macos:/Users/ada", "macos:/", "macos:", "macos:relative", "root:/", "root:", "root:/a/../b", "root:/a//b",
                          "root:/srv/./x", "root:/a\u{85}b", "ios ", "IOS", "root:/srv/icloud/", "linux"]
    static let containers = ["iCloud.com.example.Planner", "com.apple.CloudDocs", "", "a", "a..b", "a.b", String(repeating: "x", count: 300) + ".y",
                             "é.b", "a.b\n"]
    static let formats = ["binary1", "xml1", "json", "typed-json", "yaml", "", "XML1"]

    /// A generated command line: a verb and a random choice of its options,
    /// each with a value from the pools above.
    static func commandLine(_ rng: inout any SeededRandomNumberGenerator, files: [String], output: String) -> [String] {
        func pick(_ values: [String]) -> String { values.randomElement(using: &rng)! }
        func maybe(_ option: String, _ values: [String]) -> [String] { Bool.random(using: &rng) ? [option, pick(values)] : [] }
        let file = pick(files)
        let out = Bool.random(using: &rng) ? ["-o", pick([output, "-", "", "/nonexistent/dir/x"])] : []
        // Edits always write elsewhere (-o), never onto the repository's files.
        let editOut = ["-o", pick([output, "-", "", "/nonexistent/dir/x"])]
        let keyPath = pick(["a", "a.b", "0", "a\\.b", "", "\\x", "dict.1", "list.9", "-k", "é.\u{1B}"])
        let value = [pick(["--bool", "--integer", "--float", "--string", "--date", "--data", "--xml", "--json"]),
                     pick(["YES", "-7", "1.5", "x", "2001-01-01T00:00:00Z", "AAEC", "<plist/>", "{\"a\":null}", "", "\u{85}"])]
        switch Int.random(in: 0..<18, using: &rng) {
        case 15:
            return ["diff", file, pick(files)] + (Bool.random(using: &rng) ? ["--match-moved"] : []) + maybe("--format", ["json", "text", "xml"])
                + maybe(pick(["--from", "--from-a", "--from-b"]), ["typed-json", "json", ""])
        case 16: return ["merge", file, pick(files)] + (Bool.random(using: &rng) ? [keyPath] : []) + (Bool.random(using: &rng) ? ["--overwrite"] : []) + editOut
        case 17: return ["lint", file, pick(files)] + maybe("--jobs", ["1", "2", "0", "-3", "99999999999999999999", "x"])
            + (Bool.random(using: &rng) ? ["--handoff"] : [])
        case 9: return ["extract", keyPath, pick(["raw", "xml1", "binary1", "json", "typed-json", "yaml"]), file] + maybe("--expect", ["array", "bool", "x"]) + out
        case 10: return ["type", keyPath, file] + maybe("--expect", ["dictionary", "float", ""])
        case 11: return ["insert", keyPath, file] + value + (Bool.random(using: &rng) ? ["--append"] : []) + editOut
        case 12: return ["replace", keyPath, file] + value + maybe("--format", ["xml1", "binary1", "json", "openstep"]) + editOut
        case 13: return ["remove", keyPath, file] + editOut
        case 14: return ["create", pick(["xml1", "binary1", "json", "raw"]), pick([output, "-", "", "/nonexistent/dir/x"])]
        case 0: return ["lint", file, pick(files)]
        case 1: return ["print", file]
        case 2: return ["convert", file] + maybe("--format", formats) + out
        case 3: return ["unarchive", file] + out
        case 4: return ["archive", file] + maybe("--format", formats) + out
        case 5:
            return ["payload", "check", file] + maybe("--budget", sizes) + maybe("--hard-limit", sizes) + maybe("--version-key", keys)
                + maybe("--supports", supports) + maybe("--layout", layouts) + maybe("--container", containers) + maybe("--container", containers)
                + maybe("--info-plist", files) + maybe("--team-id", ["ABCDE12345", "", "\u{1B}[2J"])
        case 6:
            return ["payload", "translate", file] + maybe("--from", layouts) + maybe("--to", layouts) + maybe("--container", containers)
                + maybe("--budget", sizes) + maybe("--hard-limit", sizes) + out
        case 7:
            return ["payload", "encode", file] + maybe("--layout", layouts) + maybe("--container", containers) + maybe("--version-key", keys)
                + maybe("--version", versions) + maybe("--budget", sizes) + maybe("--hard-limit", sizes) + out
        case 8:
            return ["payload", "decode", file] + maybe("--layout", layouts) + maybe("--container", containers)
                + maybe("--version-key", keys) + maybe("--supports", supports) + out
        default:
            return ["lint", file]
        }
    }

    @Test("property: every verb with generated option values exits 0, 1 or 64 with one clean line, never a signal")
    func generatedCommandLines() async throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let envelope = directory.appendingPathComponent("envelope.json")
        try Data(PayloadCLITests.macEnvelope.utf8).write(to: envelope)
        let oddName = directory.appendingPathComponent("odd\nname\u{85}\u{1B}[2J.plist")
        try Data("bplist00".utf8).write(to: oddName)
        let files = [Self.sample, Self.plist, envelope.path, oddName.path, "-", "", "/nonexistent", directory.path,
                     Paths.golden.appendingPathComponent("foundation/url-with-base.bplist").path]
        let output = directory.appendingPathComponent("out").path
        let generator = Generator<[String], Shrink.None<[String]>> { rng in Self.commandLine(&rng, files: files, output: output) }
        await propertyCheck(count: 400, input: generator) { arguments in
            let result = try launch(Self.plistkit, arguments)
            #expect(Self.contractBroken(result, lint: arguments.first == "lint", diff: arguments.first == "diff") == nil, "plistkit \(arguments)")
        }
    }

    @Test("-o onto what is not a regular file is refused, and the thing is left as it was")
    func outputOntoSpecialFiles() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let target = directory.appendingPathComponent("target.bplist")
        try Data("precious".utf8).write(to: target)
        let link = directory.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target.path)
        let subdirectory = directory.appendingPathComponent("dir").path
        try FileManager.default.createDirectory(atPath: subdirectory, withIntermediateDirectories: false)
        var specials = [(fifo, S_IFIFO), (link, S_IFLNK), (subdirectory, S_IFDIR)]
        // A device node of our own (root only), so the test never risks the system's /dev/null.
        let device = directory.appendingPathComponent("null").path
        if getuid() == 0, mknod(device, S_IFCHR | 0o666, 0x103 /* makedev(1, 3): a null device */) == 0 { specials.append((device, S_IFCHR)) }
        for (path, kind) in specials {
            let result = try launch(Self.plistkit, ["convert", Self.plist, "--format", "xml1", "-o", path])
            #expect(Self.contractBroken(result) == nil)
            #expect(result.status == 1, "\(path)")
            #expect(String(decoding: result.stderr, as: UTF8.self).contains(": notRegularFile: "))
            var status = stat()
            #expect(lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == kind, "\(path) changed kind")
        }
        #expect(try Data(contentsOf: target) == Data("precious".utf8))
        #expect(specials.count >= 3)
        // A regular file is replaced as before.
        let result = try launch(Self.plistkit, ["convert", Self.plist, "--format", "xml1", "-o", target.path])
        #expect(result.status == 0)
        #expect(try Data(contentsOf: target).starts(with: Data("<?xml".utf8)))
    }

    @Test("a failed write to standard output exits 1 with one line: a full device, a closed pipe (no SIGPIPE)")
    func failedStandardOutput() throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        for arguments in [["print", Self.plist], ["convert", Self.plist, "--format", "xml1"], ["lint", Self.plist],
                          ["payload", "check", Self.sample, "--layout", "ios", "--container", "iCloud.com.example.Planner"]] {
            let result = try launch(Self.plistkit, arguments, stdout: full)
            #expect(Self.contractBroken(result) == nil, "\(arguments)")
            #expect(result.status == 1, "\(arguments)")
            #expect(String(decoding: result.stderr, as: UTF8.self).contains("writeFailed: cannot write standard output"), "\(arguments)")
        }
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let result = try launch(Self.plistkit, ["print", Self.plist], stdout: pipe.fileHandleForWriting)
        #expect(!result.signaled)
        #expect(result.status == 1)
    }

    @Test("errors are one line whatever the names and values hold: file names, keys, XML and JSON text")
    func controlCharactersEscaped() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = directory.appendingPathComponent("a\nb\r\u{1B}[31m\u{85}\u{9B}\u{2028}\u{202E}.plist")
        // A duplicate XML key holding a line feed, a C1 control and an escape sequence.
        let key = "k&#10;\u{85}\u{9B}2J"
        try Data("<plist><dict><key>\(key)</key><true/><key>\(key)</key><false/></dict></plist>".utf8).write(to: name)
        let json = directory.appendingPathComponent("j.json")
        try Data(#"{"type":"dict","value":{"a\n\u0085\u001b":{"type":"integer","value":"x"}}}"#.utf8).write(to: json)
        for arguments in [["print", name.path], ["convert", name.path, "--format", "json"], ["archive", json.path],
                          ["payload", "encode", json.path], ["print", directory.appendingPathComponent("missing\n\u{85}").path]] {
            let result = try launch(Self.plistkit, arguments)
            #expect(Self.contractBroken(result) == nil, "\(arguments)")
            #expect(result.status == 1)
        }
        let lint = try launch(Self.plistkit, ["lint", name.path, Self.plist])
        let lines = String(decoding: lint.stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty, "\(lines)")
        #expect(lines[0].contains(": duplicateKey: ") && lines[0].contains("k\\n\\u{85}\\u{9B}2J"), "\(lines[0])")
        #expect(lines[0].hasPrefix(Self.escapedName(name.path)))
    }

    static func escapedName(_ path: String) -> String {
        path.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
            .replacingOccurrences(of: "\u{1B}", with: "\\u{1B}").replacingOccurrences(of: "\u{85}", with: "\\u{85}")
            .replacingOccurrences(of: "\u{9B}", with: "\\u{9B}").replacingOccurrences(of: "\u{2028}", with: "\\u{2028}")
            .replacingOccurrences(of: "\u{202E}", with: "\\u{202E}")
    }

    @Test("payload check over the hard limit: the report on stdout, one error line on stderr; warnings only on success")
    func oneReportingPath() throws {
        let receiver = ["--layout", "ios", "--container", "iCloud.com.example.Planner"]
        let over = try launch(Self.plistkit, ["payload", "check", Self.sample, "--budget", "100", "--hard-limit", "150"] + receiver)
        #expect(over.status == 1)
        #expect(String(decoding: over.stderr, as: UTF8.self).split(separator: "\n").count == 1)
        #expect(String(decoding: over.stdout, as: UTF8.self).contains("warning: userInfo is 194 bytes, over the advised 100"))
        // encode: a warning with success; only the error when both.
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let envelope = directory.appendingPathComponent("e.json")
        try Data(PayloadCLITests.macEnvelope.utf8).write(to: envelope)
        let layout = ["--layout", "macos:/Users/ada", "--container", "iCloud.com.example.Planner", "-o", directory.appendingPathComponent("w").path]
        let warned = try launch(Self.plistkit, ["payload", "encode", envelope.path, "--budget", "10"] + layout)
        #expect(warned.status == 0)
        #expect(String(decoding: warned.stderr, as: UTF8.self).hasPrefix("plistkit: warning: userInfo is "))
        let failed = try launch(Self.plistkit, ["payload", "encode", envelope.path, "--budget", "10", "--hard-limit", "20"] + layout)
        #expect(failed.status == 1)
        #expect(Self.contractBroken(failed) == nil)
        #expect(String(decoding: failed.stderr, as: UTF8.self).contains(": overBudget: "))
    }

    @Test("the deepest value the limits allow (512) goes through every verb without a crash; 513 is refused")
    func deepestValue() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func typedJSON(depth: Int) -> String {
            var text = #"{"type":"integer","value":"1"}"#
            for _ in 0..<depth { text = #"{"type":"array","value":["# + text + "]}" }
            return text
        }
        let deepest = directory.appendingPathComponent("512.json"), deeper = directory.appendingPathComponent("513.json")
        try Data(typedJSON(depth: 512).utf8).write(to: deepest)
        try Data(typedJSON(depth: 513).utf8).write(to: deeper)
        let archive = directory.appendingPathComponent("512.bplist").path
        let xml = directory.appendingPathComponent("512.xml").path
        for arguments in [["archive", deepest.path, "-o", archive], ["unarchive", archive], ["print", archive],
                          ["convert", archive, "--format", "xml1", "-o", xml], ["convert", xml, "--format", "typed-json"],
                          ["convert", deepest.path, "--format", "binary1"]] {
            let result = try launch(Self.plistkit, arguments)
            #expect(Self.contractBroken(result) == nil, "\(arguments)")
            // convert reads property lists, not typed JSON: that one is refused cleanly.
            #expect(result.status == (arguments.last == "binary1" ? 1 : 0), "\(arguments)")
        }
        let refused = try launch(Self.plistkit, ["archive", deeper.path])
        #expect(refused.status == 1)
        #expect(String(decoding: refused.stderr, as: UTF8.self).contains(": depthLimitExceeded: "))
    }
}
