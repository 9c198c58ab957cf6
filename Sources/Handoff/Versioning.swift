public import UserInfo
public import PropertyList

/// A payload version, `major.minor`.
public struct PayloadVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var major: Int
    public var minor: Int

    /// A version; a negative number is refused where the version is used
    /// (``PayloadVersioning/validate()``), never trapped on.
    public init(_ major: Int, _ minor: Int) {
        (self.major, self.minor) = (major, minor)
    }

    /// Neither number is negative.
    public var isValid: Bool { major >= 0 && minor >= 0 }

    /// Parses `major.minor`: two decimal numbers without signs or leading zeros (`0` itself is fine).
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let major = Self.number(parts[0]), let minor = Self.number(parts[1]) else { return nil }
        (self.major, self.minor) = (major, minor)
    }

    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              text == "0" || !text.hasPrefix("0") else { return nil }
        return Int(text)
    }

    public var description: String { "\(major).\(minor)" }

    public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.major, lhs.minor) < (rhs.major, rhs.minor) }
}

/// One named step that turns a userInfo of version `from` into one of version `to`.
public struct PayloadMigration: Sendable {
    public let name: String
    public let from: PayloadVersion
    public let to: PayloadVersion
    public let transform: @Sendable (UserInfoDictionary) throws -> UserInfoDictionary

    /// A migration; `to` must be newer than `from` (checked by ``PayloadVersioning/validate()``).
    public init(_ name: String, from: PayloadVersion, to: PayloadVersion,
                transform: @escaping @Sendable (UserInfoDictionary) throws -> UserInfoDictionary) {
        (self.name, self.from, self.to, self.transform) = (name, from, to, transform)
    }
}

/// The versioning key of a payload: stamped on encode, checked and migrated
/// on decode. See `Specs/versioning.md`.
///
/// ```swift
/// var versioning = PayloadVersioning(key: "com.example.shop.version", current: PayloadVersion(2, 1))
/// versioning.migrations.append(PayloadMigration("rename cart", from: PayloadVersion(1, 0), to: PayloadVersion(2, 0)) { … })
/// ```
public struct PayloadVersioning: Sendable {
    /// The userInfo key holding the version (the app names it; there is no default).
    public var key: String
    /// The version this app writes and understands.
    public var current: PayloadVersion
    /// The version to assume when the key is missing; nil makes a missing key an error.
    public var assumedVersionWhenMissing: PayloadVersion?
    /// Registered migrations, applied in a chain from the payload's version.
    public var migrations: [PayloadMigration] = []

    /// A versioning configuration, checked where it is used (``validate()``).
    public init(key: String, current: PayloadVersion, assumedVersionWhenMissing: PayloadVersion? = nil) {
        (self.key, self.current, self.assumedVersionWhenMissing) = (key, current, assumedVersionWhenMissing)
    }

    /// Checks the configuration (Specs/versioning.md): a non-empty key, no
    /// negative version, migrations that move forward up to the current
    /// version, one migration per starting version.
    ///
    /// - Throws: ``PayloadError`` ``ErrorCode/invalidVersioning``.
    public func validate() throws(PayloadError) {
        // invalidVersioning
        guard !key.isEmpty else { throw PayloadError(.invalidVersioning, "the version key is empty") }
        guard current.isValid, assumedVersionWhenMissing?.isValid ?? true else {
            throw PayloadError(.invalidVersioning, "a version has a negative number")
        }
        var starts = Set<PayloadVersion>()
        for migration in migrations {
            guard migration.from.isValid, migration.to.isValid, migration.from < migration.to, migration.to <= current else {
                throw PayloadError(.invalidVersioning, "migration \"\(migration.name)\" (\(migration.from) → \(migration.to)) does not move forward to at most \(current)")
            }
            guard starts.insert(migration.from).inserted else {
                throw PayloadError(.invalidVersioning, "two migrations start at version \(migration.from)")
            }
        }
    }

    /// The userInfo with the current version stamped under ``key``.
    public func stamp(_ userInfo: UserInfoDictionary) -> UserInfoDictionary {
        var stamped = userInfo
        stamped[key] = .string(current.description)
        return stamped
    }

    /// The version a userInfo carries (or the assumed one).
    public func version(of userInfo: UserInfoDictionary) throws(PayloadError) -> PayloadVersion {
        try validate()
        guard let value = userInfo[key] else {
            // missingVersion
            guard let assumed = assumedVersionWhenMissing else {
                throw PayloadError(.missingVersion, "the payload has no version under \"\(key)\"", keyPath: PropertyListKeyPath([.key(key)]))
            }
            return assumed
        }
        // invalidVersion: a "major.minor" string.
        guard case .string(let text) = value, let version = PayloadVersion(text) else {
            throw PayloadError(.invalidVersion, "the version under \"\(key)\" is not a \"major.minor\" string", keyPath: PropertyListKeyPath([.key(key)]))
        }
        return version
    }

    /// Checks the version and migrates an older userInfo to the current version.
    ///
    /// - A newer major version is ``ErrorCode/unsupportedVersion``.
    /// - A newer minor version of the current major is accepted as it is.
    /// - An older version goes through registered migrations, chained, each
    ///   re-stamping the key; an older major without a path is
    ///   ``ErrorCode/noMigrationPath``; an older minor of the current
    ///   major without a migration is accepted as it is.
    /// - A failing step is ``ErrorCode/migrationFailed`` naming the step.
    /// - Returns: the userInfo at (or compatibly above) the current version, and the version found.
    public func check(_ userInfo: UserInfoDictionary) throws(PayloadError) -> (userInfo: UserInfoDictionary, found: PayloadVersion) {
        let found = try version(of: userInfo)
        // unsupportedVersion(found:supported:)
        if found.major > current.major {
            throw PayloadError(.unsupportedVersion, "unsupportedVersion(found: \(found), supported: \(current.major).x)")
        }
        var version = found
        var migrated = userInfo
        while version < current {
            guard let step = migrations.first(where: { $0.from == version }) else {
                // noMigrationPath
                if version.major == current.major { break }
                throw PayloadError(.noMigrationPath, "no migration leads from version \(version) to \(current)")
            }
            do {
                migrated = try step.transform(migrated)
            } catch {
                // migrationFailed
                throw PayloadError(.migrationFailed, "migration \"\(step.name)\" (\(step.from) → \(step.to)) failed: \(error)")
            }
            version = step.to
            migrated[key] = .string(version.description)
        }
        return (migrated, found)
    }
}
