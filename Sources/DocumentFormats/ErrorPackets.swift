package import FoundationEssentials
import KeyedArchive
@_spi(ByteKit) package import PropertyList
import UserInfo

/// The NSError an activity container's error packet carries, as a keyed
/// archive (Specs/keyed-archive.md, "Archived errors"), for the payload
/// layer's errors and the command line's `print`.
extension Document {
    /// The NSError in a few words: its domain and code, or why the archive is none.
    package static func errorSummary(_ archive: Data) -> String {
        do {
            let error = try ArchivedError(reading: archive)
            return "NSError domain \(PropertyListValue.string(error.domain).description) code \(error.code)"
        } catch {
            return "its archive (\(archive.count) bytes) does not read as an NSError (\(error.code.name): \(error.reason))"
        }
    }

    /// Appends the NSError's readable text to `output`: its domain, code and
    /// user info, every string quoted and escaped; the archive's graph when
    /// the user info holds other classes or the archive is no NSError; its
    /// size and the reason when it does not read. The user info is resolved
    /// within the archive's budget (each shared object once) and rendered
    /// within the output's.
    ///
    /// - Throws: ``ErrorCode/outputLimitExceeded`` past the output's budget.
    package static func appendErrorPacket(_ archive: Data, to output: inout CountedOutput) throws(PropertyListError) {
        let budget = PropertyListLimits.default.expansionBudget(inputBytes: archive.count)
        var meter = ExpansionMeter(limit: budget)
        func quoted(_ string: String) -> String {
            var text = ""
            JSONText.appendReadableQuoted(string, to: &text)
            return text
        }
        func appendGraph(_ graph: KeyedArchiveGraph) throws(PropertyListError) {
            guard let rendered = try? graph.rendered(limits: WriterLimits(maxExpandedBytes: budget)) else {
                return try output.append("(the graph is past the output budget)")
            }
            try ReadableText.append(rendered, .tree, meter: &meter, to: &output)
        }
        let error: ArchivedError
        do {
            error = try ArchivedError(reading: archive)
        } catch {
            try output.append("error: a keyed archive of \(archive.count) bytes that does not read as an NSError (\(error.code.name): \(quoted(error.reason)))")
            if error.code == .notAnError, let graph = try? KeyedArchiveGraph(reading: archive) {
                try output.append("\n")
                try appendGraph(graph)
            }
            return
        }
        try output.append("error: NSError (a keyed archive of \(archive.count) bytes)\n  domain: \(quoted(error.domain))\n  code: \(error.code)\n")
        if let userInfo = error.userInfo {
            try output.append("  userInfo: ")
            try ReadableText.append(UserInfoValue.dictionary(userInfo), .tree, meter: &meter, to: &output)
        } else if error.userInfoHasOtherClasses {
            try output.append("  userInfo: objects of other classes; the archive's graph:\n")
            try appendGraph(error.graph)
        } else {
            try output.append("  userInfo: absent")
        }
    }
}
