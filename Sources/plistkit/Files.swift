#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading inputs and writing outputs for the verbs: `-` is standard input or
/// output; outputs to files are written atomically (temporary file in the same
/// directory, then rename), so a failed run never leaves a partial file.
enum Files {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Reads a whole file (or standard input for `-`), refusing more than `limit` bytes.
    static func read(_ path: String, limit: Int) throws -> [UInt8] {
        let fd = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: "cannot open: \(String(cString: strerror(errno)))") }
        defer { if fd != STDIN_FILENO { close(fd) } }
        var bytes: [UInt8] = []
        var status = stat()
        if fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            throw Failure(description: "is a directory")
        }
        if fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
            guard Int(status.st_size) <= limit else {
                throw Failure(description: "input is \(status.st_size) bytes, over the limit of \(limit)")
            }
            bytes.reserveCapacity(Int(status.st_size))
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "cannot read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            guard bytes.count + count <= limit else {
                throw Failure(description: "input is over the limit of \(limit) bytes")
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    /// Writes `bytes` to `path` atomically, or to standard output for `-`.
    static func write(_ bytes: [UInt8], to path: String) throws {
        if path == "-" {
            try writeAll(bytes, to: STDOUT_FILENO)
            return
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        var template = Array((directory + ".plistkit-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Failure(description: "cannot create a file beside \(path): \(String(cString: strerror(errno)))") }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do {
            try writeAll(bytes, to: fd)
            guard fsync(fd) == 0 else { throw Failure(description: "cannot sync \(path): \(String(cString: strerror(errno)))") }
            fchmod(fd, 0o644)
            close(fd)
            guard rename(temporary, path) == 0 else {
                throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))")
            }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "cannot write: \(String(cString: strerror(errno)))")
            }
            offset += count
        }
    }

    /// Prints one line to standard error.
    static func complain(_ line: String) {
        try? writeAll(Array((line + "\n").utf8), to: STDERR_FILENO)
    }
}
