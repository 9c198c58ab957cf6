// Linux Foundation's side of the benchmark protocol (Benchmarks/README.md):
// PropertyListSerialization for decode/encode, NSKeyedUnarchiver/NSKeyedArchiver
// for keyed-decode/keyed-encode. Same arguments and JSON line as plistkit-bench.
//   foundation_bench OP FORMAT FILE ITERS
//   foundation_bench --make-keyed PACK OUT   archive each plist of PACK with NSKeyedArchiver
import Foundation

func documents(_ bytes: Data) -> [Data] {
    guard bytes.starts(with: Array("PLPACK01".utf8)) else { return [bytes] }
    let raw = [UInt8](bytes)
    func u32(_ at: Int) -> Int { Int(raw[at]) | Int(raw[at + 1]) << 8 | Int(raw[at + 2]) << 16 | Int(raw[at + 3]) << 24 }
    var result: [Data] = []
    var offset = 12
    for _ in 0..<u32(8) {
        let length = u32(offset)
        result.append(Data(raw[(offset + 4)..<(offset + 4 + length)]))
        offset += 4 + length
    }
    return result
}

func pack(_ documents: [Data]) -> Data {
    var out = Data("PLPACK01".utf8)
    func u32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { out.append(contentsOf: $0) } }
    u32(documents.count)
    for document in documents { u32(document.count); out.append(document) }
    return out
}

let userInfoClasses: [AnyClass] = [NSArray.self, NSDictionary.self, NSSet.self, NSString.self, NSNumber.self,
                                   NSData.self, NSDate.self, NSNull.self, NSUUID.self, NSURL.self]
let arguments = CommandLine.arguments

if arguments.count == 4, arguments[1] == "--make-keyed" {
    // The keyed pack: each userInfo plist, with the four types a plain plist cannot hold added.
    var archives: [Data] = []
    for (index, document) in documents(try Data(contentsOf: URL(fileURLWithPath: arguments[2]))).enumerated() {
        let plist = try PropertyListSerialization.propertyList(from: document, options: [], format: nil) as! [String: Any]
        let info = NSMutableDictionary(dictionary: plist)
        info["uuid"] = NSUUID(uuidString: String(format: "6F9619FF-8B86-D011-B42D-%012X", index))!
        info["link"] = NSURL(string: "https://example.com/items/\(index)?tab=2")!
        info["tags"] = NSSet(array: ["a\(index % 7)", "b\(index % 11)", "c"])
        info["none"] = NSNull()
        archives.append(try NSKeyedArchiver.archivedData(withRootObject: info, requiringSecureCoding: true))
    }
    try pack(archives).write(to: URL(fileURLWithPath: arguments[3]))
    exit(0)
}

guard arguments.count == 5, let iterations = Int(arguments[4]) else {
    print("usage: foundation_bench OP FORMAT FILE ITERS"); exit(2)
}
let (op, format, file) = (arguments[1], arguments[2], arguments[3])
let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
let inputs = documents(bytes)
let outFormat: PropertyListSerialization.PropertyListFormat = format == "xml" ? .xml : .binary

var work: (inout [Any]) throws -> Int
switch op {
case "decode":
    work = { sink in
        for document in inputs { sink.append(try PropertyListSerialization.propertyList(from: document, options: [], format: nil)) }
        return 0
    }
case "encode":
    let values = try inputs.map { try PropertyListSerialization.propertyList(from: $0, options: [], format: nil) }
    work = { sink in
        var total = 0
        for value in values {
            let data = try PropertyListSerialization.data(fromPropertyList: value, format: outFormat, options: 0)
            total += data.count
            sink.append(data)
        }
        return total
    }
case "keyed-decode":
    work = { sink in
        for document in inputs { sink.append(try NSKeyedUnarchiver.unarchivedObject(ofClasses: userInfoClasses, from: document)!) }
        return 0
    }
case "keyed-encode":
    let values = try inputs.map { try NSKeyedUnarchiver.unarchivedObject(ofClasses: userInfoClasses, from: $0)! }
    work = { sink in
        var total = 0
        for value in values {
            let archiver = NSKeyedArchiver(requiringSecureCoding: true)
            archiver.outputFormat = outFormat
            archiver.encode(value, forKey: NSKeyedArchiveRootObjectKey)
            archiver.finishEncoding()
            total += archiver.encodedData.count
            sink.append(archiver.encodedData)
        }
        return total
    }
default:
    print("unknown OP \(op)"); exit(2)
}

var warm: [Any] = []
let outBytes = try work(&warm)
warm = []
var times: [Double] = []
for _ in 0..<iterations {
    var sink: [Any] = []
    let start = DispatchTime.now().uptimeNanoseconds
    _ = try work(&sink)
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    withExtendedLifetime(sink) {}
}
times.sort()
let median = times.count % 2 == 1 ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
print(#"{"peer":"foundation","op":"\#(op)","format":"\#(format)","file":"\#((file as NSString).lastPathComponent)","iters":\#(iterations),"messages":\#(inputs.count),"bytes":\#(bytes.count),"median_s":\#(median),"min_s":\#(times.first!),"max_s":\#(times.last!),"out_bytes":\#(outBytes)}"#)
