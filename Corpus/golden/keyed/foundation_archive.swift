// Golden keyed archives: sample userInfo values archived by Linux Foundation's
// NSKeyedArchiver (secure coding). Usage: foundation_archive OUTDIR
// Run by generate.sh, which then records Foundation's own reading of each
// archive (NSKeyedUnarchiver, via Tests/PeerTools/FoundationPeer) as NAME.json.
import Foundation

let uuid = NSUUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
let samples: [String: Any] = [
    "scalars": NSDictionary(dictionary: [
        "string": "Handoff ✈︎", "empty": "", "int": NSNumber(value: 42), "negative": NSNumber(value: -7),
        "big": NSNumber(value: UInt64.max), "real": NSNumber(value: 0.1), "yes": NSNumber(value: true),
        "no": NSNumber(value: false), "data": NSData(bytes: [0, 1, 2, 255] as [UInt8], length: 4),
        "date": NSDate(timeIntervalSinceReferenceDate: 785_500_000.25),
    ]),
    "ten-types": NSDictionary(dictionary: [
        "array": NSArray(array: ["a", NSNumber(value: 1), NSNull()]),
        "data": NSData(bytes: [7] as [UInt8], length: 1),
        "date": NSDate(timeIntervalSinceReferenceDate: 0),
        "dict": NSDictionary(dictionary: ["k": "v"]),
        "null": NSNull(),
        "number": NSNumber(value: 3.5),
        "set": NSSet(array: ["x", "y", NSNumber(value: 2)]),
        "string": "s",
        "uuid": uuid,
        "url": NSURL(string: "https://www.example.com/doc?id=1")!,
    ]),
    "nested": NSDictionary(dictionary: [
        "cart": NSArray(array: [
            NSDictionary(dictionary: ["sku": "A-100", "qty": NSNumber(value: 2), "price": NSNumber(value: 19.99)]),
            NSDictionary(dictionary: ["sku": "B-7", "qty": NSNumber(value: 1), "price": NSNumber(value: 5.0)]),
        ]),
        "tags": NSSet(array: [NSArray(array: ["a"]), "b"]),
        "deep": NSArray(array: [NSArray(array: [NSArray(array: [NSDictionary(dictionary: ["x": NSNull()])])])]),
    ]),
    "shared-strings": NSArray(array: ["baa", "baa", "black", "sheep", "baa"]),
    "url-with-base": NSURL(string: "foo.xml", relativeTo: URL(string: "https://www.example.com/dir/"))!,
    "uuid-root": uuid,
    "empty-dictionary": NSDictionary(),
    "mutable": NSMutableDictionary(dictionary: ["list": NSMutableArray(array: ["m"]), "text": NSMutableString(string: "mutable")]),
]

let directory = URL(fileURLWithPath: CommandLine.arguments[1])
for (name, value) in samples {
    let data = try NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: true)
    try data.write(to: directory.appendingPathComponent("\(name).bplist"))
}
