// Golden-file writer: reads a property list with Linux Foundation's
// PropertyListSerialization and writes it back in binary and XML.
// Usage: foundation_write IN OUT.bplist OUT.xml   (run by generate.sh)
import Foundation

let arguments = CommandLine.arguments
let input = FileManager.default.contents(atPath: arguments[1])!
let value = try PropertyListSerialization.propertyList(from: input, options: [], format: nil)
try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
    .write(to: URL(fileURLWithPath: arguments[2]))
try PropertyListSerialization.data(fromPropertyList: value, format: .xml, options: 0)
    .write(to: URL(fileURLWithPath: arguments[3]))
