import Foundation
import PropertyList
import PropertyListOpenStep
import TestSupport
import Testing

/// Xcode's project layout, rule by rule (Specs/openstep.md, "Xcode projects"):
/// the expected text is written by hand from the spec (each rule was read off
/// the real projects in `../shared/realworld` and, for what they lack, off
/// projects Xcode wrote in public repositories), never by the writer.
@Suite("Xcode project layout: the rules")
struct XcodeLayoutRuleTests {
    /// One of each kind of object whose comment or layout has a rule of its own.
    static let project = """
        { archiveVersion = 1; classes = { }; objectVersion = 77; rootObject = AA0000000000000000000001;
          objects = {
            AA0000000000000000000001 = { isa = PBXProject; buildConfigurationList = AA0000000000000000000002; mainGroup = AA0000000000000000000003;
              targets = (AA0000000000000000000010); packageReferences = (AA0000000000000000000020, AA0000000000000000000021);
              attributes = { TargetAttributes = { AA0000000000000000000010 = { TestTargetID = AA0000000000000000000010; }; }; }; };
            AA0000000000000000000002 = { isa = XCConfigurationList; buildConfigurations = (AA0000000000000000000004); };
            AA0000000000000000000003 = { isa = PBXGroup; sourceTree = "<group>";
              children = (AA0000000000000000000005, AA0000000000000000000006, AA0000000000000000000008); };
            AA0000000000000000000004 = { isa = XCBuildConfiguration; name = Debug; buildSettings = { PRODUCT_NAME = "$(TARGET_NAME)"; SWIFT_VERSION = 5.0; }; };
            AA0000000000000000000005 = { isa = PBXFileReference; path = Sources/App/main.swift; sourceTree = "<group>"; };
            AA0000000000000000000006 = { isa = PBXFileSystemSynchronizedRootGroup; path = Shared; sourceTree = "<group>"; exceptions = (AA0000000000000000000007); };
            AA0000000000000000000007 = { isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (Info.plist); target = AA0000000000000000000010; };
            AA0000000000000000000008 = { isa = PBXFileSystemSynchronizedRootGroup; path = Legacy; sourceTree = "<group>"; explicitFileTypes = { }; explicitFolders = ( ); };
            AA0000000000000000000010 = { isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application";
              buildPhases = (AA0000000000000000000011); dependencies = (AA0000000000000000000013); buildRules = (AA0000000000000000000015);
              fileSystemSynchronizedGroups = (AA0000000000000000000006); packageProductDependencies = (AA0000000000000000000022); };
            AA0000000000000000000011 = { isa = PBXFrameworksBuildPhase; files = (AA0000000000000000000012, AA0000000000000000000016); };
            AA0000000000000000000012 = { isa = PBXBuildFile; productRef = AA0000000000000000000022; };
            AA0000000000000000000013 = { isa = PBXTargetDependency; name = Other; targetProxy = AA0000000000000000000014; };
            AA0000000000000000000014 = { isa = PBXContainerItemProxy; containerPortal = AA0000000000000000000001; proxyType = 1;
              remoteGlobalIDString = AA0000000000000000000010; remoteInfo = App; };
            AA0000000000000000000015 = { isa = PBXBuildRule; compilerSpec = com.apple.compilers.proxy.script; fileType = pattern.proxy; script = "echo ___VAR___\\n"; };
            AA0000000000000000000016 = { isa = PBXBuildFile; };
            AA0000000000000000000020 = { isa = XCRemoteSwiftPackageReference; repositoryURL = "https://github.com/apple/swift-argument-parser.git";
              requirement = { kind = upToNextMajorVersion; minimumVersion = 1.0.0; }; };
            AA0000000000000000000021 = { isa = XCLocalSwiftPackageReference; relativePath = ../Kit; };
            AA0000000000000000000022 = { isa = XCSwiftPackageProductDependency; package = AA0000000000000000000020; productName = ArgumentParser; };
          };
        }
        """

    /// What Xcode writes for it, by hand from the rules.
    static let expected = """
        // !$*UTF8*$!
        {
        \tarchiveVersion = 1;
        \tclasses = {
        \t};
        \tobjectVersion = 77;
        \tobjects = {

        /* Begin PBXBuildFile section */
        \t\tAA0000000000000000000012 /* ArgumentParser in Frameworks */ = {isa = PBXBuildFile; productRef = AA0000000000000000000022 /* ArgumentParser */; };
        \t\tAA0000000000000000000016 /* (null) in Frameworks */ = {isa = PBXBuildFile; };
        /* End PBXBuildFile section */

        /* Begin PBXBuildRule section */
        \t\tAA0000000000000000000015 /* PBXBuildRule */ = {
        \t\t\tisa = PBXBuildRule;
        \t\t\tcompilerSpec = com.apple.compilers.proxy.script;
        \t\t\tfileType = pattern.proxy;
        \t\t\tscript = "echo ___VAR___\\n";
        \t\t};
        /* End PBXBuildRule section */

        /* Begin PBXContainerItemProxy section */
        \t\tAA0000000000000000000014 /* PBXContainerItemProxy */ = {
        \t\t\tisa = PBXContainerItemProxy;
        \t\t\tcontainerPortal = AA0000000000000000000001 /* Project object */;
        \t\t\tproxyType = 1;
        \t\t\tremoteGlobalIDString = AA0000000000000000000010;
        \t\t\tremoteInfo = App;
        \t\t};
        /* End PBXContainerItemProxy section */

        /* Begin PBXFileReference section */
        \t\tAA0000000000000000000005 /* Sources/App/main.swift */ = {isa = PBXFileReference; path = Sources/App/main.swift; sourceTree = "<group>"; };
        /* End PBXFileReference section */

        /* Begin PBXFileSystemSynchronizedBuildFileExceptionSet section */
        \t\tAA0000000000000000000007 /* Exceptions for "Shared" folder in "App" target */ = {
        \t\t\tisa = PBXFileSystemSynchronizedBuildFileExceptionSet;
        \t\t\tmembershipExceptions = (
        \t\t\t\tInfo.plist,
        \t\t\t);
        \t\t\ttarget = AA0000000000000000000010 /* App */;
        \t\t};
        /* End PBXFileSystemSynchronizedBuildFileExceptionSet section */

        /* Begin PBXFileSystemSynchronizedRootGroup section */
        \t\tAA0000000000000000000006 /* Shared */ = {
        \t\t\tisa = PBXFileSystemSynchronizedRootGroup;
        \t\t\texceptions = (
        \t\t\t\tAA0000000000000000000007 /* Exceptions for "Shared" folder in "App" target */,
        \t\t\t);
        \t\t\tpath = Shared;
        \t\t\tsourceTree = "<group>";
        \t\t};
        \t\tAA0000000000000000000008 /* Legacy */ = {isa = PBXFileSystemSynchronizedRootGroup; explicitFileTypes = {}; explicitFolders = (); path = Legacy; sourceTree = "<group>"; };
        /* End PBXFileSystemSynchronizedRootGroup section */

        /* Begin PBXFrameworksBuildPhase section */
        \t\tAA0000000000000000000011 /* Frameworks */ = {
        \t\t\tisa = PBXFrameworksBuildPhase;
        \t\t\tfiles = (
        \t\t\t\tAA0000000000000000000012 /* ArgumentParser in Frameworks */,
        \t\t\t\tAA0000000000000000000016 /* (null) in Frameworks */,
        \t\t\t);
        \t\t};
        /* End PBXFrameworksBuildPhase section */

        /* Begin PBXGroup section */
        \t\tAA0000000000000000000003 = {
        \t\t\tisa = PBXGroup;
        \t\t\tchildren = (
        \t\t\t\tAA0000000000000000000005 /* Sources/App/main.swift */,
        \t\t\t\tAA0000000000000000000006 /* Shared */,
        \t\t\t\tAA0000000000000000000008 /* Legacy */,
        \t\t\t);
        \t\t\tsourceTree = "<group>";
        \t\t};
        /* End PBXGroup section */

        /* Begin PBXNativeTarget section */
        \t\tAA0000000000000000000010 /* App */ = {
        \t\t\tisa = PBXNativeTarget;
        \t\t\tbuildPhases = (
        \t\t\t\tAA0000000000000000000011 /* Frameworks */,
        \t\t\t);
        \t\t\tbuildRules = (
        \t\t\t\tAA0000000000000000000015 /* PBXBuildRule */,
        \t\t\t);
        \t\t\tdependencies = (
        \t\t\t\tAA0000000000000000000013 /* PBXTargetDependency */,
        \t\t\t);
        \t\t\tfileSystemSynchronizedGroups = (
        \t\t\t\tAA0000000000000000000006 /* Shared */,
        \t\t\t);
        \t\t\tname = App;
        \t\t\tpackageProductDependencies = (
        \t\t\t\tAA0000000000000000000022 /* ArgumentParser */,
        \t\t\t);
        \t\t\tproductType = "com.apple.product-type.application";
        \t\t};
        /* End PBXNativeTarget section */

        /* Begin PBXProject section */
        \t\tAA0000000000000000000001 /* Project object */ = {
        \t\t\tisa = PBXProject;
        \t\t\tattributes = {
        \t\t\t\tTargetAttributes = {
        \t\t\t\t\tAA0000000000000000000010 = {
        \t\t\t\t\t\tTestTargetID = AA0000000000000000000010;
        \t\t\t\t\t};
        \t\t\t\t};
        \t\t\t};
        \t\t\tbuildConfigurationList = AA0000000000000000000002 /* Build configuration list for PBXProject "Planner" */;
        \t\t\tmainGroup = AA0000000000000000000003;
        \t\t\tpackageReferences = (
        \t\t\t\tAA0000000000000000000020 /* XCRemoteSwiftPackageReference "swift-argument-parser" */,
        \t\t\t\tAA0000000000000000000021 /* XCLocalSwiftPackageReference "../Kit" */,
        \t\t\t);
        \t\t\ttargets = (
        \t\t\t\tAA0000000000000000000010 /* App */,
        \t\t\t);
        \t\t};
        /* End PBXProject section */

        /* Begin PBXTargetDependency section */
        \t\tAA0000000000000000000013 /* PBXTargetDependency */ = {
        \t\t\tisa = PBXTargetDependency;
        \t\t\tname = Other;
        \t\t\ttargetProxy = AA0000000000000000000014 /* PBXContainerItemProxy */;
        \t\t};
        /* End PBXTargetDependency section */

        /* Begin XCBuildConfiguration section */
        \t\tAA0000000000000000000004 /* Debug */ = {
        \t\t\tisa = XCBuildConfiguration;
        \t\t\tbuildSettings = {
        \t\t\t\tPRODUCT_NAME = "$(TARGET_NAME)";
        \t\t\t\tSWIFT_VERSION = 5.0;
        \t\t\t};
        \t\t\tname = Debug;
        \t\t};
        /* End XCBuildConfiguration section */

        /* Begin XCConfigurationList section */
        \t\tAA0000000000000000000002 /* Build configuration list for PBXProject "Planner" */ = {
        \t\t\tisa = XCConfigurationList;
        \t\t\tbuildConfigurations = (
        \t\t\t\tAA0000000000000000000004 /* Debug */,
        \t\t\t);
        \t\t};
        /* End XCConfigurationList section */

        /* Begin XCLocalSwiftPackageReference section */
        \t\tAA0000000000000000000021 /* XCLocalSwiftPackageReference "../Kit" */ = {
        \t\t\tisa = XCLocalSwiftPackageReference;
        \t\t\trelativePath = ../Kit;
        \t\t};
        /* End XCLocalSwiftPackageReference section */

        /* Begin XCRemoteSwiftPackageReference section */
        \t\tAA0000000000000000000020 /* XCRemoteSwiftPackageReference "swift-argument-parser" */ = {
        \t\t\tisa = XCRemoteSwiftPackageReference;
        \t\t\trepositoryURL = "https://github.com/apple/swift-argument-parser.git";
        \t\t\trequirement = {
        \t\t\t\tkind = upToNextMajorVersion;
        \t\t\t\tminimumVersion = 1.0.0;
        \t\t\t};
        \t\t};
        /* End XCRemoteSwiftPackageReference section */

        /* Begin XCSwiftPackageProductDependency section */
        \t\tAA0000000000000000000022 /* ArgumentParser */ = {
        \t\t\tisa = XCSwiftPackageProductDependency;
        \t\t\tpackage = AA0000000000000000000020 /* XCRemoteSwiftPackageReference "swift-argument-parser" */;
        \t\t\tproductName = ArgumentParser;
        \t\t};
        /* End XCSwiftPackageProductDependency section */
        \t};
        \trootObject = AA0000000000000000000001 /* Project object */;
        }

        """

    static func write(_ value: PropertyListValue, name: String = "Planner") throws -> String {
        var writer = OpenStepWriter(style: .xcodeProject)
        writer.projectName = name
        return String(decoding: try writer.write(value), as: UTF8.self)
    }

    @Test("comments, one-line objects and quoting as Xcode writes them, rule by rule")
    func rules() throws {
        let value = try OpenStepReader().read(Data(Self.project.utf8))
        let written = try Self.write(value)
        let (theirs, ours) = (Self.expected.split(separator: "\n", omittingEmptySubsequences: false), written.split(separator: "\n", omittingEmptySubsequences: false))
        for (line, (expected, actual)) in zip(theirs, ours).enumerated() where expected != actual {
            Issue.record("line \(line + 1):\n-\(expected)\n+\(actual)")
        }
        #expect(theirs.count == ours.count)
        // The expected text reads to the same value, and writing it is a fixed point.
        #expect(try OpenStepReader().read(Data(Self.expected.utf8)) == value)
        #expect(try Self.write(try OpenStepReader().read(Data(written.utf8))) == written)
    }

    @Test("sections by isa compared exactly: two spellings of a class name are two sections, and writing what was read gives the same text")
    func isaSpellings() throws {
        func object(_ isa: String) -> PropertyListValue { .dictionary(["isa": .string(isa), "name": "x"]) }
        for order in [["e\u{301}", "\u{E9}", "PBXGroup"], ["\u{E9}", "PBXGroup", "e\u{301}"]] {
            var objects = PropertyListDictionary()
            for (index, isa) in order.enumerated() { objects["A\(index)"] = object(isa) }
            let value = PropertyListValue.dictionary(["archiveVersion": "1", "objectVersion": "77", "objects": .dictionary(objects), "rootObject": "A0"])
            let written = try Self.write(value)
            #expect(written.components(separatedBy: "/* Begin ").count - 1 == 3, "\(written)")
            #expect(try Self.write(try OpenStepReader().read(Data(written.utf8))) == written)
        }
    }

    @Test("Xcode's quoting: bare only for ASCII letters, digits and _ $ / . without // or ___; DEL raw")
    func quoting() throws {
        let cases: [(String, String)] = [
            ("App", "App"), ("Sources/App/main.swift", "Sources/App/main.swift"), ("$BUILT_PRODUCTS_DIR/x", "$BUILT_PRODUCTS_DIR/x"),
            ("5.0", "5.0"), ("a__b", "a__b"), ("", "\"\""), ("a___b", "\"a___b\""), ("a//b", "\"a//b\""), ("Script:", "\"Script:\""),
            ("en-GB", "\"en-GB\""), ("a b", "\"a b\""), ("$(SRCROOT)", "\"$(SRCROOT)\""), ("café", "\"café\""),
            ("say \"hi\"\n\tdone\\", "\"say \\\"hi\\\"\\n\\tdone\\\\\""), ("del\u{7F}", "\"del\u{7F}\""), ("bell\u{07}", "\"bell\\U0007\""),
        ]
        for (string, text) in cases {
            let value: PropertyListValue = ["objects": ["A": ["isa": "PBXGroup", "name": .string(string)]], "rootObject": "A"]
            let written = try Self.write(value)
            #expect(written.contains("\t\t\tname = \(text);\n"), "\(string.debugDescription) → \(written)")
            #expect(try OpenStepReader().read(Data(written.utf8)) == value)
        }
    }

    @Test("commentSafety: a comment that would hold */, a NUL, a line or bidirectional control is left out; such an isa takes the generic layout")
    func commentSafety() throws {
        for name in ["a */ b", "nul\u{0}here", "line\nbreak", "esc\u{1B}[2J", "rtl\u{202E}gpj.exe", "sep\u{2028}x", "c1\u{85}"] {
            let value: PropertyListValue = ["objects": ["A": ["isa": "PBXGroup", "name": .string(name)], "B": ["isa": "PBXGroup", "children": ["A"]]], "rootObject": "B"]
            let written = try Self.write(value)
            #expect(written.contains("\t\t\t\tA,\n"), "\(name.debugDescription) → \(written)")
            #expect(!written.contains("/* " + name), "\(name.debugDescription)")
            #expect(try OpenStepReader().read(Data(written.utf8)) == value)
            // As a section's class name: not a project, so the generic layout, which reads back too.
            let odd: PropertyListValue = ["objects": ["A": ["isa": .string(name)]], "rootObject": "A"]
            #expect(!XcodeProject.isProject(odd), "\(name.debugDescription)")
            #expect(throws: PropertyListError(.unrepresentableValue, "")) { try Self.write(odd) }
            #expect(try OpenStepReader().read(OpenStepWriter().write(odd)) == odd)
        }
        // A harmless name keeps its comment.
        let plain: PropertyListValue = ["objects": ["A": ["isa": "PBXGroup", "name": "Süß * / x"], "B": ["isa": "PBXGroup", "children": ["A"]]], "rootObject": "B"]
        #expect(try Self.write(plain).contains("A /* Süß * / x */,\n"))
    }

    @Test("a package's name: the repository URL's last component without its extension")
    func packageNames() throws {
        for (url, name) in [("https://github.com/realm/realm-swift.git", "realm-swift"), ("https://github.com/groue/GRMustache.swift", "GRMustache"),
                            ("https://github.com/sparkle-project/Sparkle/", "Sparkle"), ("https://example.com/Kit", "Kit")] {
            let value: PropertyListValue = ["objects": ["A": ["isa": "XCRemoteSwiftPackageReference", "repositoryURL": .string(url)]], "rootObject": "A"]
            #expect(try Self.write(value).contains("A /* XCRemoteSwiftPackageReference \"\(name)\" */ = {"), "\(url)")
        }
    }

    @Test("the project's name: from a path NAME.xcodeproj/project.pbxproj, or as the text records it")
    func projectName() throws {
        #expect(XcodeProject.name(forPath: "/src/Planner.xcodeproj/project.pbxproj") == "Planner")
        #expect(XcodeProject.name(forPath: "Old.xcode/project.pbxproj") == "Old")
        #expect(XcodeProject.name(forPath: "Planner.xcodeproj/other.pbxproj") == nil)
        #expect(XcodeProject.name(forPath: "project.pbxproj") == nil)
        #expect(XcodeProject.name(forPath: "/x/.xcodeproj/project.pbxproj") == nil)
        #expect(XcodeProject.recordedName(in: Array(Self.expected.utf8)) == "Planner")
        #expect(XcodeProject.recordedName(in: Array("/* Build configuration list for PBXProject \"A\nB\" */".utf8)) == nil)
        #expect(XcodeProject.recordedName(in: Array(Self.project.utf8)) == nil)
        let value = try OpenStepReader().read(Data(Self.project.utf8))
        #expect(try Self.write(value, name: "").contains("/* Build configuration list for PBXProject \"\" */"))
    }

    @Test("comments count against the expanded-size budget: one long name referred to many times cannot blow the output up")
    func commentsAreCharged() throws {
        let name = String(repeating: "n", count: 10_000)
        var objects: PropertyListDictionary = ["T": ["isa": "PBXNativeTarget", "name": .string(name)]]
        for index in 0..<200 { objects["R\(index)"] = ["isa": "PBXTargetDependency", "target": "T"] }
        let value: PropertyListValue = ["objects": .dictionary(objects), "rootObject": "T"]
        var writer = OpenStepWriter(style: .xcodeProject, limits: WriterLimits(maxExpandedBytes: 1_000_000))
        #expect(throws: PropertyListError(.expansionLimitExceeded, "")) { try writer.write(value) }
        writer.limits.maxExpandedBytes = 4_000_000
        #expect(try writer.write(value).count > 2_000_000)
        // Nesting is bounded too.
        var deep: PropertyListValue = "x"
        for _ in 0..<40 { deep = .array([deep]) }
        let nested: PropertyListValue = ["objects": ["A": ["isa": "PBXGroup", "children": deep]], "rootObject": "A"]
        #expect(throws: PropertyListError(.depthLimitExceeded, "")) { try OpenStepWriter(style: .xcodeProject, limits: WriterLimits(maxDepth: 20)).write(nested) }
        #expect(throws: PropertyListError(.unrepresentableValue, "")) {
            var utf16 = OpenStepWriter(style: .xcodeProject)
            utf16.encoding = .utf16LittleEndian
            return try utf16.write(nested)
        }
    }

    @Test("format 90 and later name each build configuration after its list's owner; earlier formats by its name")
    func configurationNames() throws {
        func project(_ version: String) -> PropertyListValue {
            ["objectVersion": .string(version), "rootObject": "P", "objects": [
                "P": ["isa": "PBXProject", "buildConfigurationList": "L1", "targets": ["T"]],
                "T": ["isa": "PBXNativeTarget", "name": "App", "buildConfigurationList": "L2"],
                "L1": ["isa": "XCConfigurationList", "buildConfigurations": ["C1"]],
                "L2": ["isa": "XCConfigurationList", "buildConfigurations": ["C2"]],
                "C1": ["isa": "XCBuildConfiguration", "name": "Debug"],
                "C2": ["isa": "XCBuildConfiguration", "name": "Release"],
                "C3": ["isa": "XCBuildConfiguration", "name": "Orphan"],
            ]]
        }
        let new = try Self.write(project("100"))
        #expect(new.contains("\t\tC1 /* Debug configuration for PBXProject \"Planner\" */ = {"))
        #expect(new.contains("\t\t\t\tC2 /* Release configuration for PBXNativeTarget \"App\" */,"))
        #expect(new.contains("\t\tC3 /* Orphan */ = {"))
        #expect(try Self.write(project("90")).contains("C1 /* Debug configuration for PBXProject"))
        let old = try Self.write(project("77"))
        #expect(old.contains("\t\tC1 /* Debug */ = {") && old.contains("C2 /* Release */,"))
    }

    @Test("a plugin product is named without plugin:; a remote package keeps the extension its file recorded")
    func packageVariants() throws {
        let value: PropertyListValue = ["rootObject": "P", "objects": [
            "P": ["isa": "PBXProject", "packageReferences": ["R"]],
            "R": ["isa": "XCRemoteSwiftPackageReference", "repositoryURL": "https://github.com/Bearologics/LightChart.git"],
            "D": ["isa": "XCSwiftPackageProductDependency", "package": "R", "productName": "plugin:SwiftLint"],
            "B": ["isa": "PBXBuildFile", "productRef": "D"],
            "F": ["isa": "PBXFrameworksBuildPhase", "files": ["B"]],
        ]]
        let plain = try Self.write(value)
        #expect(plain.contains("\t\tD /* SwiftLint */ = {") && plain.contains("B /* SwiftLint in Frameworks */"))
        #expect(plain.contains("R /* XCRemoteSwiftPackageReference \"LightChart\" */"))
        var writer = OpenStepWriter(style: .xcodeProject)
        writer.recordedComments = XcodeProject.recordedComments(in: Array("\t\tR /* XCRemoteSwiftPackageReference \"LightChart.git\" */ = {\n".utf8))
        let recorded = String(decoding: try writer.write(value), as: UTF8.self)
        #expect(recorded.contains("R /* XCRemoteSwiftPackageReference \"LightChart.git\" */") && !recorded.contains("\"LightChart\""))
        // Only a form Xcode writes is kept: any other recorded comment is not.
        writer.recordedComments = ["R": "XCRemoteSwiftPackageReference \"Something else\""]
        #expect(String(decoding: try writer.write(value), as: UTF8.self).contains("R /* XCRemoteSwiftPackageReference \"LightChart\" */"))
        // The recorded comments of a file: definitions only, by ID.
        let comments = XcodeProject.recordedComments(in: Array(Self.expected.utf8))
        #expect(comments["AA0000000000000000000012"] == "ArgumentParser in Frameworks")
        #expect(comments["AA0000000000000000000001"] == "Project object")
        #expect(comments["AA0000000000000000000003"] == nil)
        #expect(comments.count == 17)
    }
}

