import Foundation
import PropertyList
import PropertyListXML
import TestSupport
import Testing

/// Apple's XML layout at its edges (base64 lines at every indentation, reals,
/// dates with %04d years, escaping, key order, deep nesting): samples written by
/// Linux Foundation (Corpus/golden/xml, generator beside them). Each sample's
/// binary copy is the value; our XML for it must equal Foundation's, and
/// Foundation's XML must read back to it (dates at whole seconds).
@Suite("XML layout golden files")
struct XMLLayoutGoldenTests {
    static let directory = Paths.golden.appendingPathComponent("xml/foundation")
    static let samples: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".xml") }.map { String($0.dropLast(4)) }.sorted()
    }()

    @Test("the layout samples are present")
    func present() { #expect(Self.samples.count >= 11) }

    @Test("our XML equals Foundation's, byte for byte", arguments: samples)
    func sameBytes(_ name: String) throws {
        let value = try BinaryPropertyListReader().read(Data(contentsOf: Self.directory.appendingPathComponent("\(name).bplist")))
        let foundation = [UInt8](try Data(contentsOf: Self.directory.appendingPathComponent("\(name).xml")))
        let ours = try XMLPropertyListWriter().writeBytes(value)
        #expect(ours == foundation, "\(hexDiffText(foundation, ours))")
    }

    @Test("Foundation's XML reads back to the value", arguments: samples)
    func readsBack(_ name: String) throws {
        let value = try BinaryPropertyListReader().read(Data(contentsOf: Self.directory.appendingPathComponent("\(name).bplist")))
        let read = try XMLPropertyListReader().read(Data(contentsOf: Self.directory.appendingPathComponent("\(name).xml")))
        #expect(peerEqual(read, XMLGoldenTests.wholeSeconds(value)))
    }
}
