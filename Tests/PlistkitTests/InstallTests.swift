import Foundation
import TestSupport
import Testing

/// Runs `plistkit` in `directory` (for file operands that are bare words).
private func plistkit(in directory: URL, _ arguments: [String], stdin: Data? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
    let result = try launch(CLITests.plistkit, arguments, stdin: stdin, in: directory)
    return (result.status, String(decoding: result.stdout, as: UTF8.self), String(decoding: result.stderr, as: UTF8.self))
}

/// A plain `lint` (files and `-s`, `--silent`, `--handoff` only) runs without
/// the argument parser and must answer as the parser's path does
/// (Specs/plistkit.md, "Start-up").
@Suite("plain lint: the same answers without the argument parser")
struct PlainLintTests {
    static let samples = Paths.packageRoot.appendingPathComponent("Corpus/samples")

    /// A directory with valid, invalid and Info.plist files named as the cases use them.
    static func directory() throws -> URL {
        let directory = try Peers.temporaryDirectory()
        let files: [(String, String)] = [
            ("good.plist", "<plist><dict><key>a</key><integer>1</integer></dict></plist>"),
            ("bad.plist", "<plist><dict><key>a</key></dict></plist>"),
            ("help", "<plist><true/></plist>"),
            ("lint", "{ a = b; }"),
            ("ctrl\u{1B}[31m.plist", "<plist><string>x</string>"),
        ]
        for (name, text) in files { try Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
        try FileManager.default.copyItem(at: samples.appendingPathComponent("Info.plist"), to: directory.appendingPathComponent("Info.plist"))
        return directory
    }

    @Test("each plain invocation gives the parser's lines, messages and exit status (the parser's path forced with --jobs)",
          arguments: [
              ["good.plist"], ["bad.plist"], ["missing.plist"], ["good.plist", "bad.plist", "missing.plist"],
              ["help"], ["lint"], ["ctrl\u{1B}[31m.plist"], ["-"], ["good.plist", "-"],
              ["-s", "good.plist", "bad.plist"], ["good.plist", "--silent"], ["-s", "-s", "good.plist"],
              ["--handoff", "Info.plist", "good.plist"], ["Info.plist", "--handoff", "-s"], [""],
          ])
    func sameAnswers(_ arguments: [String]) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stdin = arguments.contains("-") ? Data("<plist><false/></plist>".utf8) : nil
        let plain = try plistkit(in: directory, ["lint"] + arguments, stdin: stdin)
        let parsed = try plistkit(in: directory, ["lint", "--jobs", "2"] + arguments, stdin: stdin)
        #expect(plain.status == parsed.status, "\(arguments): \(plain.stderr) | \(parsed.stderr)")
        #expect(plain.stdout == parsed.stdout, "\(arguments)")
        #expect(plain.stderr == parsed.stderr, "\(arguments)")
        #expect(!plain.stdout.isEmpty || arguments.contains("-s") || arguments.contains("--silent"), "\(arguments): no output")
    }

    @Test("what is not plain goes to the parser: no file, --, --help, an unknown option, a word starting with -")
    func parserKeepsTheRest() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let none = try plistkit(in: directory, ["lint"])
        #expect(none.status == 64 && none.stderr.hasPrefix("plistkit: usage: "), "\(none.stderr)")
        let dashed = try plistkit(in: directory, ["lint", "--", "-s"])
        #expect(dashed.status == 1 && dashed.stdout.hasPrefix("-s: readFailed: "), "\(dashed.stdout)\(dashed.stderr)")
        let help = try plistkit(in: directory, ["lint", "good.plist", "--help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE: plistkit lint"), "\(help.stdout)")
        let unknown = try plistkit(in: directory, ["lint", "good.plist", "--quiet"])
        #expect(unknown.status == 64 && unknown.stderr.contains("--quiet"), "\(unknown.stderr)")
        let version = try plistkit(in: directory, ["lint", "--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix(VersionTests.number + " ("), "\(version.stdout)")
    }

    @Test("a plain lint skips the parser's start: under half the instructions of the same check through the parser (callgrind)")
    func skipsTheParser() throws {
        let plain = WorkCount.startup
        let parsed = WorkCount.startup(for: ["lint", "--jobs", "1", "{}"])
        print("lint of a tiny file: \(plain) instructions plain, \(parsed) through the argument parser")
        #expect(plain > 0 && parsed > 0)
        #expect(plain * 2 < parsed, "plain \(plain), parsed \(parsed)")
    }
}

/// `plistkit --version`: the version and the commit the binary was built
/// from (Specs/plistkit.md, "Version").
@Suite("plistkit --version")
struct VersionTests {
    static let number = "0.1.0"

    @Test("--version names the version and this checkout's commit (or says why it cannot)")
    func versionAndCommit() throws {
        let result = try CLITests.plistkit("--version")
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let line = result.stdout.trimmingCharacters(in: .newlines)
        #expect(!line.contains("\n"), "one line: \(line)")
        let git = which("git").flatMap { try? launch($0, ["-C", Paths.packageRoot.path, "rev-parse", "--verify", "HEAD^{commit}"]) }
        if let git, git.status == 0 {
            let commit = String(decoding: git.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(commit.count == 40)
            #expect(line == "\(Self.number) (commit \(commit))" || line == "\(Self.number) (commit \(commit) with uncommitted changes)", "\(line)")
        } else {
            #expect(line == "\(Self.number) (commit unknown: not built from a git checkout)"
                    || line == "\(Self.number) (commit unknown: git is not installed)", "\(line)")
        }
    }
}

/// The completion scripts swift-argument-parser writes for `plistkit`, each
/// loaded in its own shell, which must be installed (`.ci/setup` installs
/// bash, zsh and fish): a missing shell fails, never skips.
@Suite("shell completions load in bash, zsh and fish")
struct CompletionTests {
    /// Every command path under `plistkit` (`lint`, `payload check`, …), from its help dump.
    static func commandPaths() throws -> [[String]] {
        let dump = try CLITests.plistkit("--experimental-dump-help")
        let root = try #require(try JSONSerialization.jsonObject(with: dump.raw) as? [String: Any])
        var paths: [[String]] = []
        var pending: [([String], [String: Any])] = [([], try #require(root["command"] as? [String: Any]))]
        while let (path, command) = pending.popLast() {
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                guard let name = sub["commandName"] as? String else { continue }
                paths.append(path + [name])
                pending.append((path + [name], sub))
            }
        }
        return paths.sorted { $0.joined(separator: " ") < $1.joined(separator: " ") }
    }

    /// The script for `shell`, written to a temporary directory, and that directory.
    static func script(_ shell: String) throws -> (directory: URL, file: String) {
        let result = try CLITests.plistkit("--generate-completion-script", shell)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(shell): \(result.stderr)")
        return try CLITests.scratch("plistkit.\(shell)", Array(result.raw))
    }

    static func shell(_ name: String) throws -> String {
        try #require(which(name), "\(name) is not installed (apt-get install -y \(name); .ci/setup installs it)")
    }

    static func topVerbs() throws -> [String] {
        try commandPaths().filter { $0.count == 1 }.map { $0[0] }
    }

    @Test("bash: the script registers _plistkit, which completes every verb and payload's subcommands")
    func bash() throws {
        let bash = try Self.shell("bash")
        let (directory, file) = try Self.script("bash")
        defer { try? FileManager.default.removeItem(at: directory) }
        func complete(_ words: [String]) throws -> Set<String> {
            let line = words.joined(separator: " ")
            let array = words.map { "'\($0)'" }.joined(separator: " ")
            let program = """
            source '\(file)' || exit 3
            complete -p plistkit >/dev/null || exit 4
            COMP_WORDS=(\(array)); COMP_CWORD=\(words.count - 1); COMP_LINE='\(line)'; COMP_POINT=\(line.utf8.count)
            _plistkit plistkit '\(words.last!)' '\(words[words.count - 2])'
            printf '%s\\n' "${COMPREPLY[@]}"
            """
            let result = try launch(bash, ["--norc", "--noprofile", "-c", program])
            #expect(result.status == 0, "bash: \(String(decoding: result.stderr, as: UTF8.self))")
            return Set(String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init))
        }
        let verbs = try Self.topVerbs()
        #expect(verbs.count >= 14, "\(verbs)")
        let top = try complete(["plistkit", ""])
        #expect(Set(verbs).isSubset(of: top), "missing: \(Set(verbs).subtracting(top))")
        #expect(try complete(["plistkit", "li"]) == ["lint"])
        let payload = try Self.commandPaths().filter { $0.count == 2 && $0[0] == "payload" }.map { $0[1] }
        let payloadWords = try complete(["plistkit", "payload", ""])
        #expect(!payload.isEmpty && Set(payload).isSubset(of: payloadWords), "\(payloadWords)")
    }

    @Test("zsh: compinit takes the script (#compdef) and defines a function for every command path")
    func zsh() throws {
        let zsh = try Self.shell("zsh")
        let (directory, _) = try Self.script("zsh")
        defer { try? FileManager.default.removeItem(at: directory) }
        // As installed: a file named _plistkit in a directory on fpath.
        try FileManager.default.moveItem(at: directory.appendingPathComponent("plistkit.zsh"), to: directory.appendingPathComponent("_plistkit"))
        let functions = try Self.commandPaths().map { "_plistkit_" + $0.joined(separator: "_") }
        let program = """
        fpath=('\(directory.path)' $fpath)
        autoload -Uz compinit && compinit -u -D || exit 3
        print -r -- "registered: $_comps[plistkit]"
        autoload +X _plistkit || exit 4
        _plistkit 2>/dev/null
        whence -w \(functions.joined(separator: " ")) || exit 5
        """
        let result = try launch(zsh, ["-f", "-c", program])
        let out = String(decoding: result.stdout, as: UTF8.self)
        #expect(result.status == 0, "zsh: \(out) \(String(decoding: result.stderr, as: UTF8.self))")
        #expect(out.contains("registered: _plistkit"), "\(out)")
        for function in functions { #expect(out.contains("\(function): function"), "\(function) in \(out)") }
    }

    @Test("fish: the script completes every verb, payload's subcommands and lint's options")
    func fish() throws {
        let fish = try Self.shell("fish")
        let (directory, file) = try Self.script("fish")
        defer { try? FileManager.default.removeItem(at: directory) }
        func complete(_ line: String) throws -> Set<String> {
            let result = try launch(fish, ["--no-config", "-c", "source '\(file)'; or exit 3; complete -C '\(line)'"])
            #expect(result.status == 0, "fish: \(String(decoding: result.stderr, as: UTF8.self))")
            return Set(String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map { String($0.split(separator: "\t")[0]) })
        }
        let verbs = try Self.topVerbs()
        let top = try complete("plistkit ")
        #expect(Set(verbs).isSubset(of: top), "missing: \(Set(verbs).subtracting(top))")
        let payload = try Self.commandPaths().filter { $0.count == 2 && $0[0] == "payload" }.map { $0[1] }
        let payloadWords = try complete("plistkit payload ")
        #expect(!payload.isEmpty && Set(payload).isSubset(of: payloadWords), "\(payloadWords)")
        #expect(try complete("plistkit lint --").isSuperset(of: ["--silent", "--handoff", "--jobs"]))
    }
}
