// TEMPORARY (issue 44, item 3): the four detectors before the change, against the one after, on every file of the corpora.
import ActivityContainer
import DocumentFormats
import Foundation
import MPUserInfo
import PropertyList
import PropertyListXML
import Testing

private enum OldDetection: Hashable { case binary, xml, json, jsonOrOpenStep, openStep, unknown }

private func oldSignature(_ bytes: [UInt8]) -> DocumentFormat? {
    if BinaryPropertyListReader.hasMagic(bytes) { return .binary }
    if MPUserInfoReader.hasMagic(bytes) { return .mpUserInfo }
    if ActivityContainerReader.hasHeader(bytes) { return .activityContainer }
    if XMLPropertyListReader.looksLikeXML(bytes) { return .xml }
    return nil
}

private func oldFormatOf(_ bytes: [UInt8]) -> DocumentFormat? {
    if BinaryPropertyListReader.hasMagic(bytes) { return .binary }
    if XMLPropertyListReader.looksLikeXML(bytes) { return .xml }
    return nil
}

private func oldText(_ bytes: [UInt8]) -> OldDetection {
    if BinaryPropertyListReader.hasMagic(bytes) { return .binary }
    let (encoding, markLength) = TextEncoding.detect(bytes)
    if markLength == 0, bytes.starts(with: [0x00, 0x3C]) || bytes.starts(with: [0x3C, 0x00]) { return .xml }
    if markLength == 0 || encoding == .utf8WithByteOrderMark, bytes.contains(0) { return .unknown }
    var index = markLength
    func next() -> UInt16? {
        switch encoding {
        case .utf8, .utf8WithByteOrderMark:
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            return UInt16(bytes[index])
        case .utf16LittleEndian, .utf16BigEndian:
            guard index + 1 < bytes.count else { return nil }
            defer { index += 2 }
            let (a, b) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            return encoding == .utf16LittleEndian ? b << 8 | a : a << 8 | b
        }
    }
    var first = next()
    while let unit = first, unit == 0x20 || (0x09...0x0D).contains(unit) { first = next() }
    func isOpenStepAfterAngle(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"),
             UInt8(ascii: ">"), UInt8(ascii: "*"), 0x20, 0x09...0x0D: return true
        default: return false
        }
    }
    switch first {
    case 0x3C:
        switch next() {
        case let n? where n < 0x80 && isOpenStepAfterAngle(UInt8(n)): return .openStep
        default: return .xml
        }
    case 0x5B: return .json
    case 0x7B, 0x22: return .jsonOrOpenStep
    default: return .openStep
    }
}

private func newText(_ bytes: [UInt8]) -> OldDetection {
    switch DocumentFormat.detect(bytes, among: .propertyLists) {
    case .binary?: return DocumentFormat.detect(bytes, among: .propertyLists, after: .binary) == nil ? .binary : .unknown
    case .xml?: return .xml
    case .json?: return .json
    case .openStep?: return DocumentFormat.detect(bytes, among: .propertyLists, after: .openStep) == .json ? .jsonOrOpenStep : .openStep
    case nil: return .unknown
    default: return .unknown
    }
}

@Suite("TEMPORARY: detection before and after issue 44")
struct DetectionEquivalenceTests {
    @Test("every corpus file and every prefix of up to 64 bytes, and each with a UTF-8 or UTF-16 mark, detect as before")
    func same() throws {
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var inputs: [[UInt8]] = []
        for folder in ["Corpus", "../shared/conformance", "../shared/realworld", "Fuzz/.work"] {
            let base = root.appending(path: folder)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey]) else { continue }
            for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                if let data = try? Data(contentsOf: url) { inputs.append([UInt8](data)) }
            }
        }
        #expect(inputs.count > 1000, "read \(inputs.count)")
        var checked = 0
        for input in inputs {
            var variants = [input] + (0...min(64, input.count)).map { Array(input.prefix($0)) }
            for mark: [UInt8] in [[0xEF, 0xBB, 0xBF], [0xFF, 0xFE], [0xFE, 0xFF], [0x20, 0x0A]] { variants.append(mark + input.prefix(64)) }
            for bytes in variants {
                checked += 1
                #expect(DocumentFormat.detect(bytes) == oldSignature(bytes), "\(bytes.prefix(16))")
                #expect(DocumentFormat.detect(Data(bytes)) == oldSignature(bytes))
                let new = DocumentFormat.detect(bytes)
                #expect((new == .binary || new == .xml ? new : nil) == oldFormatOf(bytes))
                #expect((DocumentFormat.detect(bytes) == .mpUserInfo) == MPUserInfoReader.hasMagic(bytes))
                #expect(newText(bytes) == oldText(bytes), "\(bytes.prefix(16))")
            }
        }
        // Every two-byte start, and each after a mark.
        for a in 0...255 { for b in 0...255 {
            for prefix: [UInt8] in [[], [0xEF, 0xBB, 0xBF], [0xFF, 0xFE], [0xFE, 0xFF]] {
                let bytes = prefix + [UInt8(a), UInt8(b), 0x20, UInt8(b)]
                checked += 1
                if DocumentFormat.detect(bytes) != oldSignature(bytes) || newText(bytes) != oldText(bytes) { Issue.record("\(bytes)") }
            }
        } }
        print("detection equivalence: \(checked) inputs from \(inputs.count) files")
    }
}
