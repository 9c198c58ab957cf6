import DocumentFormats
import Foundation
import KeyedArchive
import PropertyList
import PropertyListXML
import TestSupport
import Testing
import TypedJSON
import UserInfo

/// One stack policy (Specs/architecture.md): every reader keeps its containers
/// in progress on an explicit stack, so the deepest nesting any limit allows
/// is read on a thread with a small stack. Before the policy, the binary
/// reader took 6.7 KB of stack per level in debug builds (3.4 MB at depth 512)
/// and the typed-JSON reader 7.9 KB: both overflowed a 512 KiB stack, the
/// default for secondary threads on Darwin.

@Suite("One stack policy: every reader at the deepest supported nesting, on a 512 KiB stack")
struct StackPolicyTests {
    static let depth = PropertyListLimits.maxSupportedDepth
    static let limits = PropertyListLimits(maxDepth: depth)

    /// `depth` nested arrays around a string, in both value models.
    static var deepPlist: PropertyListValue {
        var value: PropertyListValue = .string("core")
        for _ in 0..<depth { value = [value] }
        return value
    }
    static var deepUserInfo: UserInfoValue {
        var value: UserInfoValue = .uuid(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)))
        for _ in 0..<depth - 1 { value = [value] }
        return ["deep": value]
    }

    /// Runs `body` on a new thread with a stack of `stackSize` bytes and returns what it returned.
    static func onSmallStack<T: Sendable>(stackSize: Int = 512 << 10, _ body: @escaping @Sendable () -> T) -> T {
        onNewThread(stackSize: stackSize, body)
    }

    @Test("binary and XML property lists, and the format layer's read(any:)")
    func propertyLists() throws {
        let plist = Self.deepPlist
        let binary = try BinaryPropertyListWriter(limits: WriterLimits(maxDepth: Self.depth)).writeBytes(plist)
        let xml = try XMLPropertyListWriter(limits: WriterLimits(maxDepth: Self.depth)).writeBytes(plist)
        // Only the reading runs on the small stack: comparing two values recurses
        // (Equatable on the value model), so it runs on the test's own thread.
        let results = Self.onSmallStack { () -> [PropertyListValue?] in
            [
                try? BinaryPropertyListReader(limits: Self.limits).read(binary),
                try? XMLPropertyListReader(limits: Self.limits).read(xml),
                try? Document.read(any: binary, limits: Self.limits),
                try? Document.read(any: xml, limits: Self.limits),
            ]
        }
        #expect(results == [plist, plist, plist, plist])
    }

    @Test("MP userInfo (through the format layer's UserInfoWireForm)")
    func mpUserInfo() throws {
        guard case .dictionary(let userInfo) = Self.deepUserInfo else { Issue.record("not a dictionary"); return }
        let bytes = try UserInfoWireForm.mp.encode(userInfo)
        let result = Self.onSmallStack { () -> UserInfoDictionary? in
            try? UserInfoWireForm.decode(bytes, limits: Self.limits).userInfo
        }
        #expect(result == userInfo)
    }

    @Test("keyed archives and typed JSON")
    func userInfo() throws {
        let value = Self.deepUserInfo
        let archive = try KeyedArchiveWriter().write(value)
        let json = try TypedJSONWriter().write(value)
        let plistJSON = try TypedJSONWriter().write(Self.deepPlist)
        let results = Self.onSmallStack { () -> (UserInfoValue?, UserInfoValue?, PropertyListValue?) in
            (
                try? KeyedArchiveReader(limits: Self.limits).read(archive),
                try? TypedJSONReader(limits: Self.limits).readUserInfo(json),
                try? TypedJSONReader(limits: Self.limits).readPropertyList(plistJSON)
            )
        }
        #expect(results.0 == value)
        #expect(results.1 == value)
        #expect(results.2 == Self.deepPlist)
    }

    @Test("plain JSON, read directly and through the format layer's read(document:), its errors located by key path")
    func plainJSON() throws {
        let json = Array((String(repeating: "[", count: Self.depth) + "\"core\"" + String(repeating: "]", count: Self.depth)).utf8)
        // An object at every other level, and a null (refused) at the bottom.
        var refused = "null"
        for level in 0..<Self.depth { refused = level % 2 == 0 ? "{\"k\": \(refused)}" : "[1, \(refused)]" }
        let refusedBytes = Array(refused.utf8)
        let results = Self.onSmallStack { () -> (PropertyListValue?, PropertyListValue?, PropertyListError?) in
            var refusal: PropertyListError?
            do { _ = try PlainJSONReader(limits: Self.limits).read(refusedBytes) } catch { refusal = error as? PropertyListError }
            return (try? PlainJSONReader(limits: Self.limits).read(json), try? Document.read(document: json, limits: Self.limits).value, refusal)
        }
        #expect(results.0 == Self.deepPlist)
        #expect(results.1 == Self.deepPlist)
        let expectedPath = (0..<Self.depth).reversed().map { $0 % 2 == 0 ? PropertyListKeyPath.Component.key("k") : .index(1) }
        #expect(results.2?.code == .unrepresentableValue)
        #expect(results.2?.keyPath.components == expectedPath)
    }

    @Test("OpenStep text, through the format layer's read(document:)")
    func openStepText() throws {
        let openStep = Array((String(repeating: "(", count: Self.depth) + "core" + String(repeating: ")", count: Self.depth)).utf8)
        let result = Self.onSmallStack { () -> PropertyListValue? in
            try? Document.read(document: openStep, limits: Self.limits).value
        }
        #expect(result == Self.deepPlist)
    }
}
