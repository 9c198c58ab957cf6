import Foundation
import PackagePlugin

/// Writes `BuildInfo.swift` for the `plistkit` target before every build:
/// the commit its sources were built from, for `plistkit --version`
/// (Specs/plistkit.md, "Version"). It asks `git` about the package's own
/// directory, so a plain `swift build` of a clone knows its commit; where
/// there is no git checkout (a source archive) or no `git`, it says so
/// rather than guess. The file is replaced only when its text changes, so a
/// build with nothing new recompiles nothing.
@main
struct BuildInfo: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "Generated")
        return [
            .prebuildCommand(
                displayName: "BuildInfo: the commit \(target.name) is built from",
                executable: URL(filePath: "/bin/sh"),
                arguments: ["-c", Self.script, "BuildInfo", context.package.directoryURL.path(percentEncoded: false),
                            output.appending(path: "BuildInfo.swift").path(percentEncoded: false)],
                outputFilesDirectory: output
            ),
        ]
    }

    /// `sh -c` with the package's directory and the output file: the commit
    /// (40 hex digits) and whether tracked or untracked files differ from it.
    static let script = #"""
    set -u
    package=$1 output=$2
    if commit=$(git -C "$package" rev-parse --verify --quiet 'HEAD^{commit}' 2>/dev/null) && [ -n "$commit" ]; then
      if [ -z "$(git -C "$package" status --porcelain 2>/dev/null | head -c 1)" ]; then
        origin="commit $commit"
      else
        origin="commit $commit with uncommitted changes"
      fi
    elif command -v git >/dev/null 2>&1; then
      origin="commit unknown: not built from a git checkout"
    else
      origin="commit unknown: git is not installed"
    fi
    mkdir -p "$(dirname "$output")"
    cat > "$output.new" <<SWIFT
    // Generated before each build by Plugins/BuildInfo; not in git.
    enum BuildInfo {
        /// Where the sources came from: a commit, or why it is unknown.
        static let origin = "$origin"
    }
    SWIFT
    if cmp -s "$output.new" "$output"; then rm -f "$output.new"; else mv -f "$output.new" "$output"; fi
    """#
}
