import FoundationEssentials
public import PropertyList
import DocumentFormats
import PropertyListOpenStep

/// The edit oracle (Specs/fuzzing.md, "Output oracles"): an edit chosen from
/// the document itself, applied as `plistkit insert`, `replace` and `remove`
/// apply it — the key path spelled and parsed as plutil spells it, the
/// library's edit, the document written in its own format over itself, and
/// read back — ends in a clean refusal (a ``PropertyListError``), or in bytes
/// that read back to exactly the document with that one change.
///
/// The change is chosen by a generator seeded from the document's bytes: a
/// container reached by a random walk, an operation its kind allows (insert a
/// new key or index, append, replace, remove) and, as the new value, another
/// part of the same document, so that it is one the format can hold. What the
/// change should give is computed here by a model of its own (a walk down the
/// path, the operation on the last container), apart from the library's edit.
struct EditOracle {
    let entryPoint: FuzzEntryPoint
    let limits: PropertyListLimits

    /// One edit: its key path, how it applies, and the value it puts there
    /// (nil: a removal).
    struct Edit {
        var components: [String]
        var mode: PlutilInsertMode
        var value: PropertyListValue?
    }

    func check(_ document: Data) throws(FuzzFinding) {
        let bytes = [UInt8](document)
        guard let reading = try? Document.read(document: bytes, limits: limits) else { return }
        var random = SplitMix(seed: bytes)
        guard let edit = Self.choose(in: reading.value, &random) else { return }

        // The key path as plutil spells it, parsed back (a component of "" alone cannot be spelled).
        let text = Self.spelling(edit.components)
        guard let path = try? PlutilKeyPath(parsing: text) else {
            guard edit.components == [""] else {
                throw finding("the key path \(edit.components) spelled \"\(text)\" does not parse")
            }
            return
        }
        guard path.components == edit.components else {
            throw finding("the key path \(edit.components) spelled \"\(text)\" parses as \(path.components)")
        }

        let expected = Self.model(reading.value, edit.components[...], edit)
        let edited: PropertyListValue
        do {
            if let value = edit.value {
                edited = try reading.value.setting(value, at: path, mode: edit.mode)
            } else {
                edited = try reading.value.removing(at: path)
            }
        } catch {
            // A refusal is fine when the model refuses too (valueExists, a missing key...).
            guard expected == nil else { throw finding("the edit at \"\(text)\" was refused (\(error.code)) where it applies") }
            return
        }
        guard let expected, edited == expected else {
            throw finding("the edit at \"\(text)\" (\(edit.mode), \(edit.value == nil ? "remove" : "set")) did not make exactly that change")
        }

        let written: [UInt8]
        do {
            written = try Document.writeBytes(edited, as: reading.format, keyOrder: reading.format == .strings ? .insertion : .sorted,
                                              projectName: XcodeProject.recordedName(in: bytes) ?? "",
                                              textEncoding: reading.textEncoding ?? .utf8, over: reading)
        } catch {
            return  // A clean refusal: a limit, or a value the format cannot hold (.strings).
        }
        // What an edit writes reads back (Specs/plistkit.md, "Key paths"), to the edited value.
        let back: Document.Reading
        do { back = try Document.read(document: written) } catch {
            throw finding("an edited \(reading.format) document was written but does not read back: \(error)")
        }
        guard back.value == edited else {
            throw finding("an edited \(reading.format) document reads back to another value")
        }
    }

    private func finding(_ message: String) -> FuzzFinding {
        FuzzFinding(entryPoint: entryPoint, message: "edit oracle: " + message)
    }

    // MARK: Choosing an edit

    /// An edit of `root`: the container at the end of a random walk, an
    /// operation and, for all but a removal, a part of `root` as the value.
    static func choose(in root: PropertyListValue, _ random: inout SplitMix) -> Edit? {
        var components: [String] = []
        var node = root
        // Walk down while the coin says so (at most 8 levels).
        while components.count < 8, random.next(4) != 0, case let (component, member)? = randomMember(of: node, &random) {
            guard member.isContainer else { break }
            components.append(component)
            node = member
        }
        let value = randomPart(of: root, &random)
        switch node {
        case .dictionary(let dictionary):
            let keys = dictionary.keys
            switch random.next(4) {
            case 0:
                // A key that may or may not be there (insert refuses an existing one).
                let key = keys.isEmpty || random.next(2) == 0 ? "k\(random.next(4))" : keys[random.next(keys.count)]
                return Edit(components: components + [key], mode: .insert, value: value)
            case 1:
                let key = keys.isEmpty ? "k" : keys[random.next(keys.count)]
                return Edit(components: components + [key], mode: .replace, value: value)
            case 2:
                let key = keys.isEmpty ? "k" : keys[random.next(keys.count)]
                return Edit(components: components + [key], mode: .append, value: value)
            default:
                let key = keys.isEmpty ? "k" : keys[random.next(keys.count)]
                return Edit(components: components + [key], mode: .replace, value: nil)
            }
        case .array(let elements):
            // Indexes up to one past the end: the end is an insert's, past it every operation's refusal.
            let index = String(random.next(elements.count + 2))
            let modes: [PlutilInsertMode] = [.insert, .replace, .append]
            if random.next(4) == 0 { return Edit(components: components + [index], mode: .replace, value: nil) }
            return Edit(components: components + [index], mode: modes[random.next(3)], value: value)
        default:
            return nil  // A scalar document has nothing to edit.
        }
    }

    /// A member of a container, by a random position; nil for a scalar or an empty one.
    static func randomMember(of value: PropertyListValue, _ random: inout SplitMix) -> (String, PropertyListValue)? {
        switch value {
        case .dictionary(let dictionary):
            guard !dictionary.isEmpty else { return nil }
            let key = dictionary.keys[random.next(dictionary.count)]
            return (key, dictionary[key]!)
        case .array(let elements):
            guard !elements.isEmpty else { return nil }
            let index = random.next(elements.count)
            return (String(index), elements[index])
        default:
            return nil
        }
    }

    /// A part of `root` at the end of a random walk (possibly `root` itself).
    static func randomPart(of root: PropertyListValue, _ random: inout SplitMix) -> PropertyListValue {
        random.randomPart(of: root, member: randomMember)
    }

    /// plutil's spelling of a key path: components joined by dots, each dot
    /// and backslash in a component escaped by a backslash.
    static func spelling(_ components: [String]) -> String {
        // By Unicode scalars, written apart from the library's: a dot before a
        // combining mark is one Character with it, and still a dot to plutil.
        components.map { component in
            String(String.UnicodeScalarView(component.unicodeScalars.flatMap { $0 == "\\" || $0 == "." ? ["\\", $0] : [$0] }))
        }.joined(separator: ".")
    }

    // MARK: The model

    /// What `edit` should make of `value` below `components` (the path left),
    /// or nil when it should be refused: plutil's rules (Specs/plistkit.md,
    /// "Key paths"), written apart from the library's.
    static func model(_ value: PropertyListValue, _ components: ArraySlice<String>, _ edit: Edit) -> PropertyListValue? {
        guard let component = components.first else { return nil }
        let last = components.count == 1
        switch value {
        case .dictionary(var dictionary):
            let member = dictionary[component]
            if !last {
                guard let member, let changed = model(member, components.dropFirst(), edit) else { return nil }
                dictionary[component] = changed
                return .dictionary(dictionary)
            }
            guard let newValue = edit.value else {
                guard member != nil else { return nil }
                dictionary[component] = nil
                return .dictionary(dictionary)
            }
            switch edit.mode {
            case .insert:
                guard member == nil else { return nil }
                dictionary[component] = newValue
            case .replace:
                dictionary[component] = newValue
            case .append:
                guard case .array(let elements)? = member else { return nil }
                dictionary[component] = .array(elements + [newValue])
            }
            return .dictionary(dictionary)
        case .array(var elements):
            // An index: decimal digits only.
            guard !component.isEmpty, component.allSatisfy({ $0 >= "0" && $0 <= "9" }), let index = Int(component) else { return nil }
            if !last {
                guard index < elements.count, let changed = model(elements[index], components.dropFirst(), edit) else { return nil }
                elements[index] = changed
                return .array(elements)
            }
            guard let newValue = edit.value else {
                guard index < elements.count else { return nil }
                elements.remove(at: index)
                return .array(elements)
            }
            switch edit.mode {
            case .insert:
                guard index <= elements.count else { return nil }
                elements.insert(newValue, at: index)
            case .replace:
                guard index < elements.count else { return nil }
                elements[index] = newValue
            case .append:
                guard index < elements.count, case .array(let inner) = elements[index] else { return nil }
                elements[index] = .array(inner + [newValue])
            }
            return .array(elements)
        default:
            return nil
        }
    }
}

private extension PropertyListValue {
    var isContainer: Bool {
        switch self {
        case .dictionary, .array: true
        default: false
        }
    }
}

extension FuzzChecks {
    /// The edit the edit oracle chooses for `document` (no options byte): its
    /// key path's components, its mode, whether it removes, and whether
    /// plutil's rules let it apply; nil when the document does not read or
    /// has nothing to edit. For the tests that show the oracle is not vacuous.
    @_spi(Fuzzing) public static func chosenEdit(for document: [UInt8]) -> (components: [String], mode: PlutilInsertMode, removes: Bool, applies: Bool)? {
        guard let reading = try? Document.read(document: document) else { return nil }
        var random = SplitMix(seed: document)
        guard let edit = EditOracle.choose(in: reading.value, &random) else { return nil }
        let applies = EditOracle.model(reading.value, edit.components[...], edit) != nil
        return (edit.components, edit.mode, edit.value == nil, applies)
    }
}
