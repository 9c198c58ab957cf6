import Foundation
import PropertyList
import TestSupport
import TypedJSON
import UserInfo
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What plistkit does to the files it reads and replaces (Specs/plistkit.md,
/// "Inputs" and "Output"): only regular files are read, without ever blocking
/// on a FIFO; a replaced file keeps its mode, owner and group; a read-only
/// file, a hard-linked one and a symbolic link are refused and left as they
/// are; outputs written together land together or not at all.
@Suite("plistkit and the file system: modes, owners, links, FIFOs, outputs together")
struct FileSafetyTests {
    static let plistkit = CLITests.plistkit

    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    static func status(_ path: String) -> Glibc.stat {
        var status = Glibc.stat()
        _ = lstat(path, &status)
        return status
    }

    static func plist(in directory: URL, _ name: String = "a.plist") throws -> URL {
        let file = directory.appendingPathComponent(name)
        try BinaryPropertyListWriter().write(["k": "v"]).write(to: file)
        return file
    }

    @Test("an edit keeps the file's mode, owner and group (0600, 0640, another user's file)")
    func keepsMetadata() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let owners: [(uid_t, gid_t)] = getuid() == 0 ? [(getuid(), getgid()), (4242, 4343)] : [(getuid(), getgid())]
        for mode: mode_t in [0o600, 0o640, 0o664, 0o755] {
            for (uid, gid) in owners {
                let file = try Self.plist(in: directory)
                chmod(file.path, mode)
                chown(file.path, uid, gid)
                let result = try run(Self.plistkit, ["replace", "k", file.path, "--string", "w"])
                #expect(result.status == 0, "\(Self.text(result.stderr))")
                let after = Self.status(file.path)
                #expect(after.st_mode & 0o7777 == mode && after.st_uid == uid && after.st_gid == gid,
                        "mode \(String(mode, radix: 8)) owner \(uid):\(gid) → \(String(after.st_mode & 0o7777, radix: 8)) \(after.st_uid):\(after.st_gid)")
                #expect(Self.text(try run(Self.plistkit, ["extract", "k", "raw", file.path]).stdout) == "w\n")
            }
        }
        // A new file gets what a program creating it gets: 0666 less the umask.
        let mask = umask(0o022); umask(mask)
        let created = directory.appendingPathComponent("new.plist")
        #expect(try run(Self.plistkit, ["create", "xml1", created.path]).status == 0)
        #expect(Self.status(created.path).st_mode & 0o777 == 0o666 & ~mask)
    }

    @Test("read-only files, hard-linked files and symbolic links are refused and left as they are")
    func refusals() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Read-only, for root too.
        let readOnly = try Self.plist(in: directory, "ro.plist")
        chmod(readOnly.path, 0o444)
        let before = try Data(contentsOf: readOnly)
        let refused = try run(Self.plistkit, ["replace", "k", readOnly.path, "--string", "w"])
        #expect(refused.status == 1 && Self.text(refused.stderr).contains(": notWritable: "), "\(Self.text(refused.stderr))")
        #expect(try Data(contentsOf: readOnly) == before && Self.status(readOnly.path).st_mode & 0o777 == 0o444)
        // Hard links: replacing one name would leave the other with the old contents.
        let linked = try Self.plist(in: directory, "linked.plist")
        let other = directory.appendingPathComponent("other.plist")
        #expect(link(linked.path, other.path) == 0)
        let split = try run(Self.plistkit, ["remove", "k", linked.path])
        #expect(split.status == 1 && Self.text(split.stderr).contains(": multipleLinks: "), "\(Self.text(split.stderr))")
        #expect(Self.status(linked.path).st_ino == Self.status(other.path).st_ino)
        // A symbolic link stays a link to an unchanged file; the message says what to edit.
        let target = try Self.plist(in: directory, "target.plist")
        let symlink = directory.appendingPathComponent("symlink.plist")
        #expect(Glibc.symlink(target.path, symlink.path) == 0)
        let followed = try run(Self.plistkit, ["replace", "k", symlink.path, "--string", "w"])
        #expect(followed.status == 1 && Self.text(followed.stderr).contains(": notRegularFile: ") && Self.text(followed.stderr).contains("symbolic link"))
        var status = Glibc.stat()
        #expect(lstat(symlink.path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
        #expect(Self.text(try run(Self.plistkit, ["extract", "k", "raw", target.path]).stdout) == "v\n")
    }

    @Test("a FIFO, a device or a socket is refused at once, never waited on; standard input is read")
    func specialInputs() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        for arguments in [["lint", fifo.path], ["convert", fifo.path, "--format", "json"], ["insert", "k", fifo.path, "--string", "v"], ["print", "/dev/zero"]] {
            // A guard against a hang, not a measure of speed (issue 43): were the
            // FIFO opened, plistkit would wait for a writer forever; timeout ends
            // it (status 124) long after any answer.
            let result = try run("/usr/bin/timeout", ["300", Self.plistkit] + arguments)
            #expect(result.status == 1, "\(arguments): status \(result.status)")
            #expect(Self.text(result.stdout + result.stderr).contains("notRegularFile: "), "\(arguments): \(Self.text(result.stdout + result.stderr))")
        }
        let piped = try run(Self.plistkit, ["convert", "-", "--format", "json"], stdin: Data("{ a = b; }".utf8))
        #expect(Self.text(piped.stdout) == #"{"a":"b"}"#)
    }

    @Test("--header: the source and its header land together, or neither does")
    func headerTogether() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("int.json")
        try Data(#"{"k":1}"#.utf8).write(to: source)
        // The source's destination is a directory: nothing is written, the header neither.
        let blocked = directory.appendingPathComponent("Out.m")
        try FileManager.default.createDirectory(at: blocked, withIntermediateDirectories: false)
        let failed = try run(Self.plistkit, ["convert", source.path, "--format", "objc", "--header", "-o", blocked.path])
        #expect(failed.status == 1 && Self.text(failed.stderr).contains(": notRegularFile: "))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("Out.h").path))
        // The header's destination is read-only: the source is not written either, the header kept.
        let output = directory.appendingPathComponent("Config.m")
        let header = directory.appendingPathComponent("Config.h")
        try Data("old header\n".utf8).write(to: header)
        chmod(header.path, 0o444)
        let refused = try run(Self.plistkit, ["convert", source.path, "--format", "objc", "--header", "-o", output.path])
        #expect(refused.status == 1 && Self.text(refused.stderr).contains(": notWritable: "))
        #expect(!FileManager.default.fileExists(atPath: output.path))
        #expect(try Data(contentsOf: header) == Data("old header\n".utf8))
        // Both written: the constant of int.json is int_ (int is a keyword), the #import names the header.
        chmod(header.path, 0o644)
        #expect(try run(Self.plistkit, ["convert", source.path, "--format", "objc", "--header", "-o", output.path]).status == 0)
        #expect(Self.text(try Data(contentsOf: header)).contains("extern NSDictionary * const int_;"))
        #expect(Self.text(try Data(contentsOf: output)).hasPrefix("#import \"Config.h\"\n"))
        // No temporary file is left behind by any of it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".plistkit-") }.isEmpty)
    }
}

/// Every edit's output reads back (Specs/plistkit.md, "Key paths"): no writer
/// writes deeper than its reader reads, and an edit checks what it wrote.
@Suite("plistkit edits write only what plistkit reads back")
struct EditReadBackTests {
    @Test("inserting a 100-deep value 480 levels down is refused in every format, the file untouched (was a 580-deep JSON file plistkit could not read)")
    func tooDeep() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var deep: PropertyListValue = .array([])
        for _ in 0..<480 { deep = .array([deep]) }
        let document: PropertyListValue = ["a": deep]
        var inserted = "1"
        for _ in 0..<100 { inserted = "[" + inserted + "]" }
        let path = (["a"] + Array(repeating: "0", count: 479)).joined(separator: ".")
        for format in ["json", "xml1", "binary1", "openstep"] {
            let file = directory.appendingPathComponent("deep.\(format)")
            let json = directory.appendingPathComponent("deep-source.json")
            try PlainJSONWriter().write(document).write(to: json)
            #expect(try run(CLITests.plistkit, ["convert", json.path, "--format", format, "-o", file.path]).status == 0, "\(format)")
            let before = try Data(contentsOf: file)
            let result = try run(CLITests.plistkit, ["insert", path, file.path, "--json", inserted, "--append"])
            let stderr = String(decoding: result.stderr, as: UTF8.self)
            #expect(result.status == 1 && stderr.contains(": depthLimitExceeded: "), "\(format): \(stderr)")
            #expect(try Data(contentsOf: file) == before, "\(format)")
            // A shallower insertion at the same place works, and reads back.
            #expect(try run(CLITests.plistkit, ["insert", path, file.path, "--json", "[[1]]", "--append"]).status == 0, "\(format)")
            #expect(try run(CLITests.plistkit, ["lint", file.path]).status == 0)
        }
    }
}

/// Every human-readable output escapes control and bidirectional characters
/// (Specs/plistkit.md, "Errors"), `print` of Apple's wire forms included.
@Suite("plistkit print never writes a sender's controls to the terminal")
struct ReadableOutputTests {
    static let hostile = "\u{1B}]0;pwned\u{07}\r\nactivityType: forged\u{202E}\u{85}\u{2028}"

    static func hasRaw(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            scalar != "\n" && ((0...0x1F).contains(scalar.value) || (0x7F...0x9F).contains(scalar.value)
                || [0x2028, 0x2029, 0x61C, 0x200E, 0x200F].contains(scalar.value) || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value))
        }
    }

    @Test("an activity container's title, IDs and URL, and a property list's strings and keys, are quoted and escaped")
    func printEscapes() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let envelope: UserInfoValue = ["activityType": "com.example.a", "title": .string(Self.hostile), "teamID": .string("T\u{1B}[2J"),
                                       "persistentID": .string("p\u{202E}1"), "targetContentID": .string("t\r1"),
                                       "webpageURL": .url(UserInfoURL(relative: "https://example.com/a%E2%80%AE")),
                                       "userInfo": [.init(stringLiteral: Self.hostile): .string(Self.hostile)]]
        let input = directory.appendingPathComponent("envelope.json")
        try TypedJSONWriter().write(envelope).write(to: input)
        let wire = directory.appendingPathComponent("wire").path
        let encoded = try run(CLITests.plistkit, ["payload", "encode", input.path, "-o", wire, "--no-compression"])
        #expect(encoded.status == 0, "\(String(decoding: encoded.stderr, as: UTF8.self))")
        let printed = String(decoding: try run(CLITests.plistkit, ["print", wire]).stdout, as: UTF8.self)
        #expect(!Self.hasRaw(printed), "\(printed.debugDescription)")
        #expect(printed.split(separator: "\n").filter { $0.hasPrefix("activityType: ") } == ["activityType: \"com.example.a\""])
        #expect(printed.contains(#"title: "\u001b]0;pwned\u0007\r\nactivityType: forged\u202e\u0085\u2028""#), "\(printed)")
        // A property list's strings and keys print the same way.
        let plist = directory.appendingPathComponent("a.plist")
        try BinaryPropertyListWriter().write([Self.hostile: .string(Self.hostile), "list": [.string("\u{2066}x\u{2069}")]]).write(to: plist)
        let tree = String(decoding: try run(CLITests.plistkit, ["print", plist.path]).stdout, as: UTF8.self)
        #expect(!Self.hasRaw(tree), "\(tree.debugDescription)")
        #expect(tree.contains(#"0 => "\u2066x\u2069""#))
    }
}
