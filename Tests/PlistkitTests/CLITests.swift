import Foundation
import PropertyList
import PropertyListXML
import TestSupport
import Testing

/// Runs the built `plistkit` and checks standard output, standard error and
/// the exit status (Specs/plistkit.md).
@Suite("plistkit CLI")
struct CLITests {
    static let plistkit = Paths.product("plistkit").path

    static func plistkit(_ arguments: String..., stdin: Data? = nil) throws -> (status: Int32, stdout: String, stderr: String, raw: Data) {
        let result = try run(plistkit, arguments, stdin: stdin)
        return (result.status, String(decoding: result.stdout, as: UTF8.self), String(decoding: result.stderr, as: UTF8.self), result.stdout)
    }

    static func golden(_ path: String) -> String { Paths.golden.appendingPathComponent(path).path }

    /// A temporary directory holding one file with `bytes`.
    static func scratch(_ name: String, _ bytes: [UInt8]) throws -> (directory: URL, file: String) {
        let directory = try Peers.temporaryDirectory()
        let file = directory.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return (directory, file.path)
    }

    @Test("lint: FILE: OK for each valid file, exit 0")
    func lintValid() throws {
        let a = Self.golden("plistlib/scalars.bplist"), b = Self.golden("foundation/uids.bplist")
        let result = try Self.plistkit("lint", a, b)
        #expect(result.status == 0)
        #expect(result.stdout == "\(a): OK\n\(b): OK\n")
        #expect(result.stderr.isEmpty)
    }

    @Test("lint: the reason, offset and key path of a bad file, exit 1, other files still checked")
    func lintInvalid() throws {
        // {"k": [<ASCII string with byte 0xFF>]}
        let bad = bplist([[0xD1, 1, 2], [0x51, 0x6B], [0xA1, 3], [0x51, 0xFF]])
        let (directory, file) = try Self.scratch("bad.bplist", bad)
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = Self.golden("plistlib/top-string.bplist")
        let result = try Self.plistkit("lint", file, good)
        #expect(result.status == 1)
        #expect(result.stdout == "\(file): invalidASCII: byte 0xFF in an ASCII string (at offset 16, key path k[0])\n\(good): OK\n")
    }

    @Test("lint: unreadable and non-plist inputs are one clean line each")
    func lintUnreadable() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let prose = directory.appendingPathComponent("notes.txt")
        try Data("two words\n".utf8).write(to: prose)
        let binary = directory.appendingPathComponent("blob")
        try Data([0xFF, 0x00, 0x17]).write(to: binary)
        let latin1 = directory.appendingPathComponent("latin1.strings")
        try Data([0x61, 0x20, 0x3D, 0x20, 0xE9, 0x3B]).write(to: latin1)
        let result = try Self.plistkit("lint", "/nonexistent/file.plist", prose.path, binary.path, latin1.path)
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("/nonexistent/file.plist: readFailed: cannot open"))
        // Text is OpenStep (a bare word is a string, as plutil reads it); these are not.
        #expect(lines[1] == "\(prose.path): trailingBytes: text follows the top value (at line 1, column 5)")
        #expect(lines[2] == "\(binary.path): unknownFormat: not a property list: binary data that is not bplist00, and not text (UTF-8, or UTF-16 after a byte-order mark) (at offset 0)")
        #expect(lines[3] == "\(latin1.path): invalidUTF8: the text is neither UTF-8 nor UTF-16 with a byte-order mark (at offset 4)")
    }

    @Test("print: a readable sorted tree like plutil -p")
    func printTree() throws {
        let result = try Self.plistkit("print", Self.golden("plistlib/empty-containers.bplist"))
        #expect(result.status == 0)
        #expect(result.stdout == """
        {
          "array" => [
          ]
          "data" => {length = 0, bytes = 0x}
          "dict" => {
          }
          "nested" => [
            0 => [
            ]
            1 => {
            }
            2 => [
              0 => [
              ]
            ]
          ]
          "string" => ""
        }

        """)
    }

    @Test("print: bad input gives one line on stderr and exit 1, nothing on stdout")
    func printInvalid() throws {
        let result = try Self.plistkit("print", "-", stdin: Data("bplist00 but not really, this is far too short".utf8))
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("plistkit: -: "))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test("convert --format binary1 to stdout decodes to the same value")
    func convertBinaryToStdout() throws {
        let input = Self.golden("foundation/userinfo-like.bplist")
        let result = try Self.plistkit("convert", input, "--format", "binary1")
        #expect(result.status == 0)
        let original = try BinaryPropertyListReader().read(Data(contentsOf: URL(fileURLWithPath: input)))
        #expect(try BinaryPropertyListReader().read(result.raw) == original)
    }

    @Test("convert -o writes the file atomically; - reads standard input")
    func convertToFile() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.bplist").path
        let input = try Data(contentsOf: URL(fileURLWithPath: Self.golden("plistutil/array-of-dicts.bplist")))
        let result = try Self.plistkit("convert", "-", "--format", "binary1", "-o", output, stdin: input)
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(try BinaryPropertyListReader().read(Data(contentsOf: URL(fileURLWithPath: output))) == BinaryPropertyListReader().read(input))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.bplist"])
    }

    @Test("convert --format json: plain JSON for JSON-representable values")
    func convertJSON() throws {
        let (directory, file) = try Self.scratch("in.bplist", try BinaryPropertyListWriter().writeBytes(
            ["b": [1, -2.5, true, .null], "a": "x\"y\n", "big": .integer(PropertyListInteger(UInt64.max))]))
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Self.plistkit("convert", file, "--format", "json")
        #expect(result.status == 0)
        #expect(result.stdout == #"{"a":"x\"y\n","b":[1,-2.5,true,null],"big":18446744073709551615}"#)
    }

    @Test("convert failure: exit 1, one line naming the key path, and no output file or temporary left behind")
    func convertFailureLeavesNothing() throws {
        let (directory, file) = try Self.scratch("in.bplist", try BinaryPropertyListWriter().writeBytes(["when": ["ok", .date(Date())]]))
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.json").path
        let result = try Self.plistkit("convert", file, "--format", "json", "-o", output)
        #expect(result.status == 1)
        #expect(result.stderr == "plistkit: \(file): unrepresentableValue: JSON cannot represent a date value (key path when[1])\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["in.bplist"])
    }

    @Test("convert over an existing file keeps it intact when the conversion fails")
    func convertFailureKeepsExisting() throws {
        // A truncated binary plist (two bytes "bp" would now read as an OpenStep string).
        let (directory, file) = try Self.scratch("in.bplist", Array("bplist00".utf8))
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("existing.bplist")
        try Data("precious".utf8).write(to: output)
        let result = try Self.plistkit("convert", file, "--format", "binary1", "-o", output.path)
        #expect(result.status == 1)
        #expect(try Data(contentsOf: output) == Data("precious".utf8))
    }

    @Test("usage errors exit non-zero without a stack trace")
    func usage() throws {
        let result = try Self.plistkit("convert", "x", "--format", "yaml")
        #expect(result.status != 0)
        #expect(!result.stderr.contains("Fatal error"))
        #expect(result.stderr.contains("yaml"))
    }
}

@Suite("plistkit convert between binary1 and xml1")
struct ConvertRoundTripTests {
    @Test("every golden file round-trips binary1 → xml1 → binary1 through the CLI (dates at whole seconds, as XML carries them)")
    func goldenRoundTrips() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var checked = 0
        for writer in ["plistlib", "plistutil", "foundation"] {
            let folder = Paths.golden.appendingPathComponent(writer)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
                let input = folder.appendingPathComponent(name).path
                let xml = directory.appendingPathComponent("\(writer)-\(name).xml").path
                let back = directory.appendingPathComponent("\(writer)-\(name).bplist").path
                let toXML = try CLITests.plistkit("convert", input, "--format", "xml1", "-o", xml)
                #expect(toXML.status == 0, "\(writer)/\(name): \(toXML.stderr)")
                #expect(try CLITests.plistkit("convert", xml, "--format", "binary1", "-o", back).status == 0)
                let original = try CLIValues.read(input)
                let roundTripped = try CLIValues.read(back)
                #expect(peerEqual(CLIValues.wholeSeconds(original), roundTripped), "\(writer)/\(name)")
                checked += 1
            }
        }
        #expect(checked >= 120)
    }
}

enum CLIValues {
    static func read(_ path: String) throws -> PropertyListValue {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try data.starts(with: Array("bplist".utf8)) ? BinaryPropertyListReader().read(data) : XMLPropertyListReader().read(data)
    }

    static func wholeSeconds(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .date(let date): return .date(Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.rounded(.down)))
        case .array(let elements): return .array(elements.map(wholeSeconds))
        case .dictionary(let dictionary): return .dictionary(dictionary.mapValues(wholeSeconds))
        default: return value
        }
    }
}
