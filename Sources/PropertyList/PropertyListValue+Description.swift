/// A readable tree, shaped like `plutil -p`: dictionary keys sorted, one
/// entry per line, `=>` between key and value, strings quoted with every
/// control and bidirectional character escaped. See `Specs/plistkit.md`,
/// "Output". Rendered through the one bounded walk (``ReadableText``), with
/// no bound: `plistkit print` renders the same text within its input's budget.
extension PropertyListValue: CustomStringConvertible {
    public var description: String { ReadableText.unbounded(self, .tree) }
}
