/// What `plistkit --version` prints (Specs/plistkit.md, "Version"): the
/// version, then where the binary's sources came from, as the BuildInfo
/// plugin found them before the build: `0.1.0 (commit <40 hex digits>)`,
/// `… with uncommitted changes)`, or `0.1.0 (commit unknown: not built from
/// a git checkout)` (or `…: git is not installed`).
enum Version {
    /// The release's version; the release tarball is named after it.
    static let number = "0.1.0"

    static let text = "\(number) (\(BuildInfo.origin))"
}
