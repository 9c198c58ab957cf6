import Foundation
import PropertyBased
import PropertyList
import PropertyListOpenStep
import TestSupport
import Testing

/// Specs/openstep.md, "Writer".
@Suite("OpenStep writer")
struct OpenStepWriterTests {
    static func text(_ value: PropertyListValue, style: OpenStepWriter.Style = .propertyList) throws -> String {
        String(decoding: try OpenStepWriter(style: style).write(value), as: UTF8.self)
    }

    @Test("Xcode's layout: tabs, key = value;, one element per line with a trailing comma, quotes only where needed")
    func layout() throws {
        let value: PropertyListValue = .dictionary([
            "name": "a b", "path": "Sources/main.swift", "empty": "", "list": .array(["x", "y\n\"z\""]),
            "nested": .dictionary(["k": .data(Data([0x0F, 0xA1, 0x2B, 0xFF, 0x00]))]), "none": .array([]), "comment": "a//b",
        ])
        let expected = """
        {
        \tcomment = "a//b";
        \tempty = "";
        \tlist = (
        \t\tx,
        \t\t"y\\n\\"z\\"",
        \t);
        \tname = "a b";
        \tnested = {
        \t\tk = <0fa12bff 00>;
        \t};
        \tnone = (
        \t);
        \tpath = Sources/main.swift;
        }

        """
        #expect(try Self.text(value) == expected)
        #expect(try Self.text(.string("plain")) == "plain\n")
        #expect(try Self.text(.dictionary(["b": "2", "a": "1"]), style: .strings) == "\"a\" = \"1\";\n\"b\" = \"2\";\n")
    }

    @Test("GNUstep typed forms for integers, reals, booleans and whole-second dates; what OpenStep cannot hold is refused")
    func typedForms() throws {
        #expect(try Self.text(.array([.integer(-12), .real(1.5), .bool(true), .date(Date(timeIntervalSinceReferenceDate: 10))]))
                == "(\n\t<*I-12>,\n\t<*R1.5>,\n\t<*BY>,\n\t<*D2001-01-01 00:00:10 +0000>,\n)\n")
        #expect(throws: PropertyListError(.invalidDate, "")) { try OpenStepWriter().write(.date(Date(timeIntervalSinceReferenceDate: 0.5))) }
        #expect(throws: PropertyListError(.unrepresentableValue, "")) { try OpenStepWriter().write(.array([.uid(1)])) }
        #expect(throws: PropertyListError(.unrepresentableValue, "")) { try OpenStepWriter().write(.real(.nan)) }
        #expect(throws: PropertyListError(.unrepresentableValue, "")) { try OpenStepWriter(style: .strings).write(.dictionary(["a": .integer(1)])) }
        #expect(throws: PropertyListError(.unrepresentableValue, "")) { try OpenStepWriter(style: .strings).write(.array([])) }
    }

    /// A generated value with what OpenStep cannot carry replaced: dates to whole seconds, no NaN.
    static func representable(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate.rounded(.down)
            return abs(seconds) < 3e10 ? .date(Date(timeIntervalSinceReferenceDate: seconds)) : .string("date")
        case .real(let real): return real.isFinite ? value : .real(0.5)
        case .uid, .null: return .string("x")
        case .array(let elements): return .array(elements.map(representable))
        case .dictionary(let dictionary): return .dictionary(dictionary.mapValues(representable))
        default: return value
        }
    }

    @Test("property: value → OpenStep → value is exact, and writing is deterministic (both key orders)")
    func roundTrip() async {
        await propertyCheck(count: 300, input: ValueGenerator(allowNull: false).generator) { generated in
            let value = Self.representable(generated)
            for order in KeyOrder.allCases {
                var writer = OpenStepWriter()
                writer.keyOrder = order
                let text = try writer.write(value)
                let back = try OpenStepReader().read(text)
                #expect(back == value, "\(String(decoding: text, as: UTF8.self))")
                #expect(try writer.write(back) == text)
            }
        }
    }
}
