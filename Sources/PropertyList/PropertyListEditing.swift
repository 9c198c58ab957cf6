/// plutil's key paths and edits (Specs/plistkit.md, "Key paths"): a key path
/// is dot-separated, `\.` is a literal dot (and `\\` a backslash); a
/// component applied to a dictionary is a key, applied to an array it is a
/// decimal index. Errors name the component that failed.
public struct PlutilKeyPath: Sendable, Hashable, CustomStringConvertible {
    /// The components as written, unescaped.
    public var components: [String]

    /// Parses plutil's spelling.
    ///
    /// - Throws: ``PropertyListError`` ``ErrorCode/invalidKeyPath`` for an
    ///   empty key path or a backslash before anything but `.` or `\`.
    public init(parsing text: String) throws(PropertyListError) {
        // invalidKeyPath: something to follow, every escape one plutil knows.
        guard !text.isEmpty else { throw PropertyListError(.invalidKeyPath, "the key path is empty") }
        // By Unicode scalars, as plutil reads them (UTF-16 units): a dot or a
        // backslash followed by a combining mark is still a separator or an
        // escape, though the two make one Character.
        var components: [String] = []
        var current = String.UnicodeScalarView()
        var escaping = false
        for scalar in text.unicodeScalars {
            if escaping {
                guard scalar == "." || scalar == "\\" else {
                    throw PropertyListError(.invalidKeyPath, "\"\\\(Character(scalar))\" in key path \"\(text)\": only \\. and \\\\ are escapes")
                }
                current.append(scalar)
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else if scalar == "." {
                components.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        guard !escaping else { throw PropertyListError(.invalidKeyPath, "key path \"\(text)\" ends in a lone backslash") }
        components.append(String(current))
        self.components = components
    }

    /// The key path as plutil spells it (dots and backslashes escaped, by Unicode scalars).
    public var description: String {
        components.map { component in
            var escaped = String.UnicodeScalarView()
            for scalar in component.unicodeScalars {
                if scalar == "\\" || scalar == "." { escaped.append("\\") }
                escaped.append(scalar)
            }
            return String(escaped)
        }.joined(separator: ".")
    }

    /// The first `count` components, spelled as plutil spells them (for errors).
    func prefix(_ count: Int) -> String {
        PlutilKeyPath(components: Array(components.prefix(count))).description
    }

    private init(components: [String]) { self.components = components }
}

/// How an insert places its value.
public enum PlutilInsertMode: Sendable, Hashable {
    /// plutil's `-insert`: the last component must name no value yet (an array
    /// index may be the array's count, or any index to insert before).
    case insert
    /// plutil's `-insert -append`: the key path names an array; the value goes at its end.
    case append
    /// plutil's `-replace`: the value under the last component, whether there was one or not.
    case replace
}

extension PropertyListValue {
    /// The value at a plutil key path.
    ///
    /// - Throws: ``PropertyListError`` with ``ErrorCode/keyPathNotFound``,
    ///   ``ErrorCode/indexOutOfRange`` or ``ErrorCode/notAContainer``, naming
    ///   the component that failed.
    public func value(at path: PlutilKeyPath) throws(PropertyListError) -> PropertyListValue {
        var value = self
        for (position, component) in path.components.enumerated() {
            value = try Self.member(of: value, component, path: path, position: position)
        }
        return value
    }

    /// This value with `newValue` placed at `path` as `mode` says.
    ///
    /// - Throws: ``PropertyListError`` with ``ErrorCode/keyPathNotFound``,
    ///   ``ErrorCode/indexOutOfRange``, ``ErrorCode/notAContainer``,
    ///   ``ErrorCode/valueExists`` (an insert onto a value), naming the component.
    public func setting(_ newValue: PropertyListValue, at path: PlutilKeyPath, mode: PlutilInsertMode) throws(PropertyListError) -> PropertyListValue {
        try Self.edit(self, path: path, position: 0) { (container, component, position) throws(PropertyListError) in
            switch container {
            case .dictionary(var dictionary):
                if mode == .append {
                    guard case .array(var elements)? = dictionary[component] else {
                        throw Self.failure(dictionary[component] == nil ? .keyPathNotFound : .notAContainer,
                                           "append needs an array at", path, position)
                    }
                    elements.append(newValue)
                    dictionary[component] = .array(elements)
                } else {
                    // valueExists: insert never overwrites (replace does).
                    if mode == .insert, dictionary[component] != nil {
                        throw Self.failure(.valueExists, "a value already exists at", path, position)
                    }
                    dictionary[component] = newValue
                }
                return .dictionary(dictionary)
            case .array(var elements):
                // indexOutOfRange: only an insert may name the array's count (append names an element).
                let index = try Self.index(component, in: elements.count, allowingEnd: mode == .insert, path: path, position: position)
                switch mode {
                case .insert: elements.insert(newValue, at: index)
                case .replace: elements[index] = newValue
                case .append:
                    guard case .array(var inner) = elements[index] else {
                        throw Self.failure(.notAContainer, "append needs an array at", path, position)
                    }
                    inner.append(newValue)
                    elements[index] = .array(inner)
                }
                return .array(elements)
            default:
                throw Self.failure(.notAContainer, Self.holder(container, path, position), path, position)
            }
        }
    }

    /// This value without the value at `path`.
    ///
    /// - Throws: ``PropertyListError`` with ``ErrorCode/keyPathNotFound``,
    ///   ``ErrorCode/indexOutOfRange`` or ``ErrorCode/notAContainer``.
    public func removing(at path: PlutilKeyPath) throws(PropertyListError) -> PropertyListValue {
        try Self.edit(self, path: path, position: 0) { (container, component, position) throws(PropertyListError) in
            switch container {
            case .dictionary(var dictionary):
                guard dictionary[component] != nil else { throw Self.failure(.keyPathNotFound, "no value at", path, position) }
                dictionary[component] = nil
                return .dictionary(dictionary)
            case .array(var elements):
                elements.remove(at: try Self.index(component, in: elements.count, allowingEnd: false, path: path, position: position))
                return .array(elements)
            default:
                throw Self.failure(.notAContainer, Self.holder(container, path, position), path, position)
            }
        }
    }

    /// PlistBuddy's `Merge` (Specs/plistkit.md, "Merge"): `source`'s members
    /// added to the dictionary or array at `path` (this value itself when
    /// nil). Into a dictionary, `source` must be a dictionary: a key present
    /// in both keeps this value's member (its key listed in `kept`) unless
    /// `overwrite`. Into an array, an array's members or a dictionary's values
    /// are appended, in order.
    ///
    /// - Throws: ``PropertyListError`` with ``ErrorCode/notMergeable``, or the
    ///   key-path errors of ``value(at:)``.
    public func merging(_ source: PropertyListValue, at path: PlutilKeyPath?, overwrite: Bool) throws(PropertyListError) -> (merged: PropertyListValue, kept: [String]) {
        let target = try path.map { (path) throws(PropertyListError) in try value(at: path) } ?? self
        let place = path.map { "the value at \"\($0)\"" } ?? "the top value"
        var kept: [String] = []
        let merged: PropertyListValue
        switch (target, source) {
        case (.dictionary(var entries), .dictionary(let added)):
            for (key, member) in added {
                if entries[key] == nil {
                    entries[key] = member
                } else if overwrite {
                    entries[key] = member
                } else {
                    kept.append(key)
                }
            }
            merged = .dictionary(entries)
        case (.array(var elements), .array(let added)):
            elements.append(contentsOf: added)
            merged = .array(elements)
        case (.array(var elements), .dictionary(let added)):
            elements.append(contentsOf: added.values)
            merged = .array(elements)
        case (.dictionary, .array):
            // notMergeable: an array's members have no keys to go under.
            throw PropertyListError(.notMergeable, "\(place) is a dictionary and the merged document an array: its members have no keys")
        case (.dictionary, _), (.array, _):
            // notMergeable: only a container's members can be added.
            throw PropertyListError(.notMergeable, "the merged document is \(English.article(source.typeName)) \(source.typeName), not a dictionary or array")
        default:
            // notMergeable: members go into a dictionary or an array.
            throw PropertyListError(.notMergeable, "\(place) is \(English.article(target.typeName)) \(target.typeName), not a dictionary or array")
        }
        guard let path else { return (merged, kept) }
        return (try setting(merged, at: path, mode: .replace), kept)
    }

    // MARK: Steps

    /// Rebuilds the containers along `path`, applying `last` to the container
    /// of the last component. Recursion follows the key path (bounded by the
    /// value's depth, at most `PropertyListLimits.maxSupportedDepth`).
    private static func edit(
        _ value: PropertyListValue, path: PlutilKeyPath, position: Int,
        last: (PropertyListValue, String, Int) throws(PropertyListError) -> PropertyListValue
    ) throws(PropertyListError) -> PropertyListValue {
        let component = path.components[position]
        if position == path.components.count - 1 { return try last(value, component, position) }
        let member = try self.member(of: value, component, path: path, position: position)
        let edited = try edit(member, path: path, position: position + 1, last: last)
        switch value {
        case .dictionary(var dictionary):
            dictionary[component] = edited
            return .dictionary(dictionary)
        case .array(var elements):
            elements[try index(component, in: elements.count, allowingEnd: false, path: path, position: position)] = edited
            return .array(elements)
        default:
            preconditionFailure("member(of:) accepted only containers")
        }
    }

    private static func member(of value: PropertyListValue, _ component: String, path: PlutilKeyPath, position: Int) throws(PropertyListError) -> PropertyListValue {
        switch value {
        case .dictionary(let dictionary):
            // keyPathNotFound
            guard let member = dictionary[component] else { throw failure(.keyPathNotFound, "no value at", path, position) }
            return member
        case .array(let elements):
            return elements[try index(component, in: elements.count, allowingEnd: false, path: path, position: position)]
        default:
            // notAContainer: only dictionaries and arrays have members.
            throw failure(.notAContainer, holder(value, path, position), path, position)
        }
    }

    /// An array index: decimal digits, below `count` (or equal to it when `allowingEnd`).
    private static func index(_ component: String, in count: Int, allowingEnd: Bool, path: PlutilKeyPath, position: Int) throws(PropertyListError) -> Int {
        // indexOutOfRange: a decimal index within the array.
        guard !component.isEmpty, component.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let index = Int(component),
              index < count || (allowingEnd && index == count) else {
            throw failure(.indexOutOfRange, "index \"\(component)\" is not within the array of \(count): no value at", path, position)
        }
        return index
    }

    /// "the value at P is a T, not a dictionary or array: nothing at": what a component met.
    private static func holder(_ value: PropertyListValue, _ path: PlutilKeyPath, _ index: Int) -> String {
        let place = index == 0 ? "the top value" : "the value at \"\(path.prefix(index))\""
        return "\(place) is \(English.article(value.typeName)) \(value.typeName), not a dictionary or array: nothing at"
    }

    /// An error naming the component at `index` (0-based) and the key path up to it.
    private static func failure(_ code: ErrorCode, _ reason: String, _ path: PlutilKeyPath, _ index: Int) -> PropertyListError {
        let index = min(max(index, 0), path.components.count - 1)
        let component = "component \(index + 1) of \(path.components.count), \"\(path.components[index])\""
        return PropertyListError(code, "\(reason) \"\(path.prefix(index + 1))\" (\(component))")
    }}
