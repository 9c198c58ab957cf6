import Foundation
import PropertyBased
import PropertyList
import PropertyListXML
import TestSupport
import Testing

/// Golden XML (Specs/golden-files.md): peer-written XML decodes to the stored
/// values; our XML equals Linux Foundation's byte for byte; peers read ours.
@Suite("XML golden files and peers")
struct XMLGoldenTests {
    static let samples: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Paths.golden.appendingPathComponent("plistlib").path)) ?? []
        return names.filter { $0.hasSuffix(".xml") }.map { String($0.dropLast(4)) }.sorted()
    }()

    static func expected(_ name: String) throws -> PropertyListValue {
        try PeerTypedJSON.value(from: Data(contentsOf: Paths.golden.appendingPathComponent("expected/\(name).json")))
    }

    /// Dates as XML carries them: whole seconds, rounded down.
    static func wholeSeconds(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .date(let date): return .date(Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.rounded(.down)))
        case .array(let elements): return .array(elements.map(wholeSeconds))
        case .dictionary(let dictionary): return .dictionary(dictionary.mapValues(wholeSeconds))
        default: return value
        }
    }

    static func unsignedZeros(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .real(let real) where real == 0: return .real(0)
        case .array(let elements): return .array(elements.map(unsignedZeros))
        case .dictionary(let dictionary): return .dictionary(dictionary.mapValues(unsignedZeros))
        default: return value
        }
    }

    /// A one-key CF$UID dictionary as the UID it stands for in XML (libplist 2.2 keeps it a dictionary).
    static func uidsFromDictionaries(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .dictionary(let dictionary):
            if dictionary.count == 1, let uid = dictionary["CF$UID"]?.integerValue?.uint64Value.flatMap(UInt32.init(exactly:)) { return .uid(uid) }
            return .dictionary(dictionary.mapValues(uidsFromDictionaries))
        case .array(let elements): return .array(elements.map(uidsFromDictionaries))
        default: return value
        }
    }

    @Test("the golden XML set is present")
    func present() { #expect(Self.samples.count >= 20) }

    @Test("XML written by plistlib, plistutil and Foundation decodes to the stored values", arguments: samples)
    func peerWritten(_ name: String) throws {
        let expected = try Self.expected(name)
        for writer in ["plistlib", "plistutil", "foundation"] {
            let decoded = try XMLPropertyListReader().read(Data(contentsOf: Paths.golden.appendingPathComponent("\(writer)/\(name).xml")))
            // Foundation's and libplist's XML writers write -0.0 as 0.0 (Specs/known-deviations.md).
            let comparable = writer == "plistlib" ? expected : Self.unsignedZeros(expected)
            #expect(peerEqual(decoded, comparable), "\(writer)/\(name).xml")
        }
    }

    @Test("our XML equals Linux Foundation's byte for byte (negative zero aside, which Foundation writes as 0.0)", arguments: samples)
    func sameBytesAsFoundation(_ name: String) throws {
        let ours = try XMLPropertyListWriter().writeBytes(try Self.expected(name))
        let foundation = [UInt8](try Data(contentsOf: Paths.golden.appendingPathComponent("foundation/\(name).xml")))
        if name == "negative-zero" {
            #expect(String(decoding: ours, as: UTF8.self).replacingOccurrences(of: "<real>-0.0</real>", with: "<real>0.0</real>") == String(decoding: foundation, as: UTF8.self))
        } else {
            #expect(ours == foundation, "\(hexDiffText(foundation, ours))")
        }
    }

    @Test("plistlib, Foundation and plistutil read our XML as the values we wrote")
    func peersReadOurXML() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var values = try Self.samples.map { ($0, try Self.expected($0)) }
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (11, 12, 13, 14))
        let generator = ValueGenerator(allowNull: false, ordinaryDates: true)
        for index in 0..<60 { values.append(("generated-\(index)", Self.xmlSafe(generator.value(depth: 0, using: &rng)))) }
        var files: [URL] = []
        for (name, value) in values {
            let file = directory.appendingPathComponent("\(name).xml")
            try XMLPropertyListWriter().write(value).write(to: file)
            files.append(file)
        }
        let readings: [(String, Peers.Readings)] = [
            ("plistlib", try Peers.plistlib(files)), ("Foundation", try Peers.foundation(files)), ("plistutil", try Peers.plistutil(files, in: directory)),
        ]
        for (peer, results) in readings {
            for ((name, value), result) in zip(values, results) {
                switch result {
                case .success(let read):
                    let comparable = peer == "plistutil" ? Self.uidsFromDictionaries(read) : read
                    #expect(peerEqual(comparable, Self.wholeSeconds(value)), "\(peer) read \(name) differently:\n\(read)")
                case .failure(let failure): Issue.record("\(peer) refused \(name): \(failure)")
                }
            }
        }
    }

    /// Generated values with what XML 1.0 cannot carry replaced (control characters,
    /// U+FFFE/U+FFFF, a leading U+FEFF).
    static func xmlSafe(_ value: PropertyListValue) -> PropertyListValue {
        func clean(_ string: String) -> String {
            var scalars = String.UnicodeScalarView(string.unicodeScalars.map { scalar in
                (scalar.value < 0x20 && scalar != "\t" && scalar != "\n") || scalar.value == 0xFFFE || scalar.value == 0xFFFF || scalar == "\r" ? "?" : scalar
            })
            if scalars.first == "\u{FEFF}" { scalars.replaceSubrange(scalars.startIndex...scalars.startIndex, with: ["?"]) }
            return String(scalars)
        }
        switch value {
        case .string(let string): return .string(clean(string))
        case .array(let elements): return .array(elements.map(xmlSafe))
        case .dictionary(let dictionary):
            var result = PropertyListDictionary()
            for (key, member) in dictionary { result.insertNew(xmlSafe(member), forKey: clean(key)) }
            return .dictionary(result)
        default: return value
        }
    }
}

func hexDiffText(_ old: [UInt8], _ new: [UInt8]) -> String {
    let first = zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(old.count, new.count)
    let start = max(0, first - 40)
    return "first difference at \(first):\n- \(String(decoding: old[start..<min(old.count, first + 40)], as: UTF8.self))\n+ \(String(decoding: new[start..<min(new.count, first + 40)], as: UTF8.self))"
}

@Suite("XML round trips (property-based)")
struct XMLRoundTripTests {
    @Test("compact XML and insertion key order read back to the same value as Apple's layout; plistlib reads compact XML alike")
    func compactAndKeyOrder() async throws {
        await propertyCheck(count: 200, input: ValueGenerator(allowNull: false).generator) { generated in
            let value = XMLGoldenTests.xmlSafe(generated)
            guard let apple = try? XMLPropertyListWriter().writeBytes(value) else { return }
            var writer = XMLPropertyListWriter()
            writer.compact = true
            writer.keyOrder = .insertion
            let compact = try writer.writeBytes(value)
            #expect(compact.count <= apple.count)
            let decoded = try XMLPropertyListReader().read(compact)
            #expect(peerEqual(decoded, XMLGoldenTests.wholeSeconds(value)))
            // Insertion order is the value's own: written again, the same bytes.
            #expect(try writer.writeBytes(decoded) == compact)
        }
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [URL] = []
        var expected: [PropertyListValue] = []
        for name in ["scalars", "array-of-dicts", "long-strings", "empty-containers", "shared-values"] {
            let value = try BinaryPropertyListReader().read(Data(contentsOf: Paths.golden.appendingPathComponent("plistlib/\(name).bplist")))
            var writer = XMLPropertyListWriter()
            writer.compact = true
            let file = directory.appendingPathComponent("\(name).xml")
            try writer.write(value).write(to: file)
            files.append(file)
            expected.append(XMLGoldenTests.wholeSeconds(value))
        }
        for (reading, value) in zip(try Peers.plistlib(files), expected) {
            #expect(peerEqual(try reading.get(), value))
        }
    }

    @Test("XML → value → XML is exact; binary → XML → binary keeps every value XML can carry")
    func roundTrips() async {
        await propertyCheck(count: 300, input: ValueGenerator(allowNull: false).generator) { generated in
            let value = XMLGoldenTests.xmlSafe(generated)
            guard let xml = try? XMLPropertyListWriter().writeBytes(value) else { return }  // dates outside 0000-9999
            let decoded = try XMLPropertyListReader().read(xml)
            #expect(peerEqual(decoded, XMLGoldenTests.wholeSeconds(value)))
            #expect(try XMLPropertyListWriter().writeBytes(decoded) == xml)
            let binary = try BinaryPropertyListWriter().writeBytes(decoded)
            #expect(try BinaryPropertyListReader().read(binary) == decoded)
        }
    }

    @Test("unrepresentableValue: null, control characters, U+FFFE/U+FFFF and a one-key CF$UID dictionary are refused, with the key path")
    func unrepresentable() {
        for value: PropertyListValue in [["a": [.null]], ["a": ["x\u{0}y"]], ["a": ["\u{1B}"]], ["a": [.string("\u{FFFF}")]],
                                         ["a": [.string("ok\u{FFFE}")]], ["a": [["CF$UID": 5]]], ["a": [["CF$UID": 4294967296]]]] {
            do {
                _ = try XMLPropertyListWriter().write(value)
                Issue.record("wrote \(value)")
            } catch {
                #expect(error.code == .unrepresentableValue)
                #expect(error.keyPath.description == "a[0]")
            }
        }
        #expect(throws: PropertyListError(.unrepresentableValue, "")) { try XMLPropertyListWriter().write(["k\u{1}": 1]) }
    }

    @Test("a carriage return is written as &#13; and reads back as itself")
    func carriageReturn() throws {
        let xml = try XMLPropertyListWriter().writeBytes(["line\r\nbreak"])
        #expect(String(decoding: xml, as: UTF8.self).contains("<string>line&#13;\nbreak</string>"))
        #expect(try XMLPropertyListReader().read(xml) == ["line\r\nbreak"])
    }
}
