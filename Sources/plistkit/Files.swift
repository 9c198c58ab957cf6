#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading inputs and writing outputs for the verbs (Specs/plistkit.md,
/// "Output"): `-` is standard input or output; outputs to files are written
/// atomically (temporary file in the same directory, then rename), so a failed
/// run never leaves a partial file, and never over anything but a regular file.
enum Files {
    /// Reads a whole file (or standard input for `-`), refusing more than `limit` bytes.
    static func read(_ path: String, limit: Int) throws -> [UInt8] {
        let fd = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CLIFailure(code: "readFailed", reason: "cannot open: \(lastError)") }
        defer { if fd != STDIN_FILENO { close(fd) } }
        var bytes: [UInt8] = []
        var status = stat()
        if fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            throw CLIFailure(code: "readFailed", reason: "is a directory")
        }
        if fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
            guard Int(status.st_size) <= limit else {
                throw CLIFailure(code: "inputTooLarge", reason: "input is \(status.st_size) bytes, over the limit of \(limit)")
            }
            bytes.reserveCapacity(Int(status.st_size))
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CLIFailure(code: "readFailed", reason: "cannot read: \(lastError)")
            }
            if count == 0 { break }
            guard bytes.count + count <= limit else {
                throw CLIFailure(code: "inputTooLarge", reason: "input is over the limit of \(limit) bytes")
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    /// Writes `bytes` to `path` atomically, or to standard output for `-`.
    ///
    /// An existing `path` must be a regular file (not a symbolic link, device,
    /// pipe, socket or directory): renaming over a device node would replace
    /// it with a regular file (`-o /dev/null` as root), so it is refused
    /// (`notRegularFile`); write to standard output for those.
    static func write(_ bytes: [UInt8], to path: String) throws {
        if path == "-" {
            try Console.write(bytes)
            return
        }
        var existing = stat()
        if lstat(path, &existing) == 0, (existing.st_mode & S_IFMT) != S_IFREG {
            throw CLIFailure(code: "notRegularFile", reason: "\(path) exists and is not a regular file (use -o - and redirect for devices and pipes)")
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        var template = Array((directory + ".plistkit-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw CLIFailure(code: "writeFailed", reason: "cannot create a file beside \(path): \(lastError)") }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var open = true
        do {
            try writeAll(bytes, to: fd, name: path)
            guard fsync(fd) == 0 else { throw CLIFailure(code: "writeFailed", reason: "cannot sync \(path): \(lastError)") }
            fchmod(fd, 0o644)
            open = false
            guard close(fd) == 0 else { throw CLIFailure(code: "writeFailed", reason: "cannot write \(path): \(lastError)") }
            guard rename(temporary, path) == 0 else {
                throw CLIFailure(code: "writeFailed", reason: "cannot write \(path): \(lastError)")
            }
        } catch {
            if open { close(fd) }
            unlink(temporary)
            throw error
        }
    }

    /// Writes all of `bytes` to a descriptor, retrying on interruption.
    static func writeAll(_ bytes: [UInt8], to fd: Int32, name: String) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CLIFailure(code: "writeFailed", reason: "cannot write \(name): \(lastError)")
            }
            offset += count
        }
    }

    private static var lastError: String { String(cString: strerror(errno)) }
}
