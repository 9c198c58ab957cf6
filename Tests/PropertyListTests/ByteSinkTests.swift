import Foundation
@_spi(ByteKit) import PropertyList
import TestSupport
import Testing

/// The kit's byte sink: appended spans of every length, which it copies by
/// length class (single bytes, two halves, two words, four words, memcpy),
/// land whole and in order, after contents of every length.
@Suite("ByteSink appends")
struct ByteSinkTests {
    @Test("spans of 1 to 80 bytes appended after 0 to 40 bytes, into sinks that grow")
    func everyLength() {
        var random = TestRandom(seed: 2032)
        for before in 0...40 {
            for length in 1...80 {
                let head = (0..<before).map { _ in UInt8.random(in: 0...255, using: &random) }
                let tail = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
                var sink = ByteSink(capacity: Int.random(in: 0...8, using: &random))
                sink.append(head.span)
                sink.append(tail.span)
                #expect(sink.takeBytes() == head + tail, "\(before) then \(length)")
            }
        }
    }
}
