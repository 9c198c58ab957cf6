#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PropertyList
import UserInfo

/// A failure of the tool itself (reading, writing, options), named like the
/// library's rules so that every error line has a code (Specs/plistkit.md, "Errors").
struct CLIFailure: Error, CustomStringConvertible {
    /// The rule's name: `readFailed`, `inputTooLarge`, `writeFailed`, `notRegularFile`.
    let code: String
    let reason: String
    var description: String { reason }
}

/// Everything plistkit writes (Specs/plistkit.md, "Output" and "Errors"):
/// standard output through checked writes, so a full disk or a closed pipe is
/// a failure, never a silent success; and exactly one line on standard error
/// per failure, with control characters escaped wherever the text came from.
enum Console {
    /// Writes bytes to standard output, all of them, or throws `writeFailed`.
    static func write(_ bytes: [UInt8]) throws {
        try Files.writeAll(bytes, to: STDOUT_FILENO, name: "standard output")
    }

    /// Writes one line to standard output (escaped by the caller where needed).
    static func line(_ text: String) throws {
        try write(Array((text + "\n").utf8))
    }

    /// The one line for a failed input: `plistkit: FILE: CODE: description`.
    static func fail(_ subject: String, _ error: any Error) {
        complain("plistkit: \(escaped(subject)): \(describe(error))")
    }

    /// ``fail(_:_:)`` for an error described already (``describe(_:)``,
    /// on the thread that met it).
    static func fail(_ subject: String, described: String) {
        complain("plistkit: \(escaped(subject)): \(described)")
    }

    /// The one line of a usage error: `plistkit: usage: …`.
    static func usage(_ message: String) {
        complain("plistkit: usage: \(escaped(message))")
    }

    /// A warning line on standard error (only when the verb succeeds).
    static func warn(_ text: String) {
        complain("plistkit: warning: \(escaped(text))")
    }

    /// `CODE: description` for any error, escaped, the code of the rule that was broken first.
    static func describe(_ error: any Error) -> String {
        guard let code = code(of: error) else { return escaped("\(error)") }
        return escaped("\(code): \(error)")
    }

    /// The rule's name of the library's and the tool's errors: the most
    /// specific one (a userInfo error that only wraps a property-list error
    /// names the property-list rule).
    static func code(of error: any Error) -> String? {
        switch error {
        case let error as any CodecError: return (error.code == .propertyList ? error.innermostCode : error.code).name
        case let error as CLIFailure: return error.code
        default: return nil
        }
    }

    /// Text made safe for one line of a terminal or a log: line breaks, tabs
    /// and every other control character (C0, DEL, C1), the line and paragraph
    /// separators and the bidirectional controls, written as escapes.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        TextEscaping.append(text, quoted: false, to: &out) { scalar, _ in
            needsEscape(scalar) ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : nil
        }
        return out
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true                       // C0, DEL, C1
        case 0x2028, 0x2029: return true                                 // line, paragraph separators
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true  // bidirectional controls
        default: return false
        }
    }

    /// Writes one line to standard error; nothing else writes there.
    private static func complain(_ line: String) {
        try? Files.writeAll(Array((line + "\n").utf8), to: STDERR_FILENO, name: "standard error")
    }
}
