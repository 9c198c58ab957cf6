#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading inputs and writing outputs for the verbs (Specs/plistkit.md,
/// "Output" and "Inputs"): `-` is standard input or output; only regular files
/// are read or replaced; outputs to files are written atomically (temporary
/// file in the same directory, then rename), keep the mode, owner and group of
/// the file they replace, and several outputs of one verb land together or
/// not at all.
enum Files {
    /// Reads a whole file (or standard input for `-`), refusing more than `limit` bytes.
    ///
    /// A file is opened without blocking and must be a regular file: a FIFO
    /// without a writer would block `open` forever, and a device or a socket is
    /// no document (`notRegularFile`); standard input is read as it comes.
    static func read(_ path: String, limit: Int) throws -> [UInt8] {
        let fd = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw CLIFailure(code: "readFailed", reason: "cannot open: \(lastError)") }
        defer { if fd != STDIN_FILENO { close(fd) } }
        var bytes: [UInt8] = []
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw CLIFailure(code: "readFailed", reason: "cannot read: \(lastError)") }
        let kind = status.st_mode & S_IFMT
        if kind == S_IFDIR { throw CLIFailure(code: "readFailed", reason: "is a directory") }
        if fd != STDIN_FILENO {
            // notRegularFile: FIFOs, devices and sockets are no documents (use - and redirect).
            guard kind == S_IFREG else {
                throw CLIFailure(code: "notRegularFile", reason: "is a \(Self.kindName(kind)), not a regular file (only regular files and standard input, '-', are read)")
            }
            // A regular file never blocks; reads go on as usual.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        }
        if kind == S_IFREG {
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

    /// True when `path` names a directory (following symbolic links).
    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// `path` with its directory resolved (`realpath`: symbolic links, `.`,
    /// `..`), for telling whether two paths name one file; the path as given
    /// when its directory cannot be resolved.
    static func canonicalPath(_ path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        let directory = path.count == name.count ? "." : String(path.dropLast(name.count))
        guard let resolved = realpath(directory.isEmpty ? "/" : directory, nil) else { return path }
        defer { free(resolved) }
        let base = String(cString: resolved)
        return (base.hasSuffix("/") ? base : base + "/") + name
    }

    /// Writes `bytes` to `path` atomically, or to standard output for `-`
    /// (see ``write(_:)``).
    static func write(_ bytes: [UInt8], to path: String) throws {
        try write([(bytes, path)])
    }

    /// Writes each output to its path, all of them or none (`convert --header`
    /// writes a source and its header): every destination is checked and every
    /// temporary file written before the first is renamed into place, and a
    /// failed rename puts back what the earlier ones replaced.
    ///
    /// A destination that exists must be a regular file (`notRegularFile`: a
    /// device, a pipe, a socket, a directory or a symbolic link is left as it
    /// is), have a single link (`multipleLinks`: replacing it would split its
    /// hard links), and be writable (`notWritable`: no write permission, or
    /// read-only for everyone, mode `0444`); what replaces it keeps its mode,
    /// owner and group (`notWritable` when the owner cannot be kept). A new
    /// file gets the mode a program creating it gets (`0666` less the umask).
    static func write(_ outputs: [(bytes: [UInt8], path: String)]) throws {
        let files = outputs.filter { $0.path != "-" }
        for output in outputs where output.path == "-" { try Console.write(output.bytes) }
        guard !files.isEmpty else { return }
        let creationMode = Self.creationMode()
        // 1. Every destination as it is.
        var targets: [Target] = []
        for (bytes, path) in files { targets.append(try Target(path: path, bytes: bytes, creationMode: creationMode)) }
        // 2. Every temporary file, written and synced, with the destination's metadata.
        var temporaries: [String] = []
        do {
            for target in targets { temporaries.append(try target.writeTemporary()) }
        } catch {
            for temporary in temporaries { unlink(temporary) }
            throw error
        }
        // 3. Into place; a failure puts back what was replaced.
        var placed: [(target: Target, backup: String?)] = []
        for (index, target) in targets.enumerated() {
            do {
                // One destination needs no backup: its rename is the whole change.
                let backup = targets.count > 1 && target.existed ? try Self.backup(of: target.path) : nil
                guard rename(temporaries[index], target.path) == 0 else {
                    let failure = CLIFailure(code: "writeFailed", reason: "cannot write \(target.path): \(lastError)")
                    if let backup { unlink(backup) }
                    throw failure
                }
                placed.append((target, backup))
            } catch {
                for (done, backup) in placed.reversed() {
                    if let backup { rename(backup, done.path) } else { unlink(done.path) }
                }
                for temporary in temporaries[index...] { unlink(temporary) }
                throw error
            }
        }
        for case (_, let backup?) in placed { unlink(backup) }
    }

    /// A destination, checked, with what its replacement must keep.
    private struct Target {
        let path: String
        let bytes: [UInt8]
        let existed: Bool
        let mode: mode_t
        let owner: (uid_t, gid_t)?

        init(path: String, bytes: [UInt8], creationMode: mode_t) throws {
            (self.path, self.bytes) = (path, bytes)
            var existing = stat()
            guard lstat(path, &existing) == 0 else {
                (existed, mode, owner) = (false, creationMode, nil)
                return
            }
            let kind = existing.st_mode & S_IFMT
            // notRegularFile: never rename over a device, pipe, socket, directory or link.
            guard kind == S_IFREG else {
                let hint = kind == S_IFLNK ? " (edit the file it names, or use -o - and redirect)" : " (use -o - and redirect for devices and pipes)"
                throw CLIFailure(code: "notRegularFile", reason: "\(path) exists and is a \(Files.kindName(kind)), not a regular file\(hint)")
            }
            // multipleLinks: a replaced file leaves its other hard links behind, holding the old contents.
            guard existing.st_nlink <= 1 else {
                throw CLIFailure(code: "multipleLinks", reason: "\(path) has \(existing.st_nlink) hard links; replacing it would split them (write elsewhere with -o, then copy over it)")
            }
            // notWritable: read-only files stay as they are, for root too.
            guard existing.st_mode & 0o222 != 0, access(path, W_OK) == 0 else {
                throw CLIFailure(code: "notWritable", reason: "\(path) is read-only (mode \(String(existing.st_mode & 0o7777, radix: 8))); it is left as it is")
            }
            existed = true
            mode = existing.st_mode & 0o7777
            owner = (existing.st_uid, existing.st_gid)
        }

        /// A temporary file beside the destination holding the bytes, with the
        /// destination's owner, group and mode, synced; its path.
        func writeTemporary() throws -> String {
            let slash = path.lastIndex(of: "/")
            let directory = slash.map { String(path[...$0]) } ?? ""
            var template = Array((directory + ".plistkit-XXXXXX").utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { throw CLIFailure(code: "writeFailed", reason: "cannot create a file beside \(path): \(lastError)") }
            let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            var open = true
            do {
                if let (uid, gid) = owner, uid != geteuid() || gid != getegid() {
                    // notWritable: the replacement must keep the owner and group, or nothing is replaced.
                    guard fchown(fd, uid, gid) == 0 else {
                        throw CLIFailure(code: "notWritable", reason: "\(path) belongs to user \(uid), group \(gid), which a replacement cannot keep (\(lastError))")
                    }
                }
                try Files.writeAll(bytes, to: fd, name: path)
                // After chown, which may clear set-id bits.
                guard fchmod(fd, mode) == 0 else { throw CLIFailure(code: "writeFailed", reason: "cannot set the mode of \(path): \(lastError)") }
                guard fsync(fd) == 0 else { throw CLIFailure(code: "writeFailed", reason: "cannot sync \(path): \(lastError)") }
                open = false
                guard close(fd) == 0 else { throw CLIFailure(code: "writeFailed", reason: "cannot write \(path): \(lastError)") }
                return temporary
            } catch {
                if open { close(fd) }
                unlink(temporary)
                throw error
            }
        }
    }

    /// A hard link to `path` under a new name beside it, to put it back from.
    private static func backup(of path: String) throws -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        var template = Array((directory + ".plistkit-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw CLIFailure(code: "writeFailed", reason: "cannot create a file beside \(path): \(lastError)") }
        close(fd)
        let backup = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        unlink(backup)
        guard link(path, backup) == 0 else { throw CLIFailure(code: "writeFailed", reason: "cannot keep \(path) to put it back: \(lastError)") }
        return backup
    }

    /// The mode a new file gets: `0666` less the process's umask.
    private static func creationMode() -> mode_t { processCreationMode }

    /// Read once per process: `umask` can only be read by setting it, and
    /// another thread (`--jobs`) creating a file between the two calls would
    /// get a umask of 0. A static is initialised once, whichever thread asks first.
    private static let processCreationMode: mode_t = {
        let mask = umask(0)
        umask(mask)
        return 0o666 & ~mask
    }()

    static func kindName(_ kind: mode_t) -> String {
        switch kind {
        case S_IFIFO: return "FIFO"
        case S_IFCHR: return "character device"
        case S_IFBLK: return "block device"
        case S_IFSOCK: return "socket"
        case S_IFDIR: return "directory"
        case S_IFLNK: return "symbolic link"
        default: return "special file"
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
