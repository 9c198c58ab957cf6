import Foundation
import PropertyList

/// The independent readers the tests compare against (Specs/golden-files.md,
/// "Peers"): Python's plistlib, Linux Foundation's PropertyListSerialization
/// (the `foundation-peer` executable) and libplist's `plistutil`.
public enum Peers {
    public struct Missing: Error, CustomStringConvertible { public let description: String }

    /// What a peer made of each file: a value, or the reason it refused.
    public typealias Readings = [Result<PropertyListValue, Missing>]

    public static func plistlib(_ files: [URL]) throws -> Readings {
        guard let python = which("python3") else { throw Missing(description: "python3 is not installed") }
        let script = Paths.packageRoot.appendingPathComponent("Tests/PeerTools/plistlib_peer.py").path
        return try readings(try run(python, [script] + files.map(\.path)).stdout, count: files.count)
    }

    public static func foundation(_ files: [URL]) throws -> Readings {
        let peer = Paths.product("foundation-peer").path
        guard FileManager.default.isExecutableFile(atPath: peer) else { throw Missing(description: "foundation-peer was not built") }
        return try readings(try run(peer, files.map(\.path)).stdout, count: files.count)
    }

    /// libplist reads each file and writes it back as binary; plistlib then reads that.
    public static func plistutil(_ files: [URL], in directory: URL) throws -> Readings {
        guard let plistutil = which("plistutil") else {
            throw Missing(description: "plistutil is not installed (apt-get install -y libplist-utils)")
        }
        var rewritten: [URL] = []
        var refusals: [Int: String] = [:]
        for (index, file) in files.enumerated() {
            let output = directory.appendingPathComponent("plistutil-\(index).bplist")
            let result = try run(plistutil, ["-i", file.path, "-o", output.path, "-f", "bin"])
            if result.status != 0 || !FileManager.default.fileExists(atPath: output.path) {
                refusals[index] = "plistutil refused: " + String(decoding: result.stderr, as: UTF8.self)
            }
            rewritten.append(output)
        }
        var values = try plistlib(rewritten.enumerated().filter { refusals[$0.offset] == nil }.map(\.element))
        return files.indices.map { refusals[$0].map { .failure(Missing(description: $0)) } ?? values.removeFirst() }
    }

    private static func readings(_ output: Data, count: Int) throws -> Readings {
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).prefix(count)
        guard lines.count == count else { throw Missing(description: "peer printed \(lines.count) lines for \(count) files") }
        return try lines.map { line in
            if line.hasPrefix("!") { return .failure(Missing(description: String(line.dropFirst()))) }
            return .success(try PeerTypedJSON.value(from: Data(line.utf8)))
        }
    }

    /// A fresh temporary directory.
    public static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("activitycodec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
