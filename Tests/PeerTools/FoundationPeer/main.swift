// Peer reader for ActivityCodec's tests: reads a property list with Linux
// Foundation's PropertyListSerialization and prints it as typed JSON (the same
// form as plistlib_peer.py; see Specs/golden-files.md), one line per file.
// It lives in its own executable because Foundation traps on some inputs.
import Foundation

func typed(_ value: Any) -> String {
    // ASCII-only JSON strings: Foundation's own JSON parser drops a raw U+FEFF
    // that follows an escape sequence, so nothing non-ASCII is left raw.
    func quote(_ s: String) -> String {
        var out = "\""
        for unit in s.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default: out += String(format: "\\u%04x", unit)
            }
        }
        return out + "\""
    }
    func node(_ type: String, _ value: String) -> String { "{\"type\":\"\(type)\",\"value\":\(value)}" }
    // NSURL keeps the relative string and base as archived (bridging to URL would resolve them).
    func urlNode(_ url: NSURL) -> String {
        let base = url.baseURL.map { urlNode($0 as NSURL) } ?? "null"
        return "{\"type\":\"url\",\"relative\":\(quote(url.relativeString)),\"base\":\(base)}"
    }
    switch value {
    case is NSNull:
        return "{\"type\":\"null\"}"
    case let uuid as UUID:
        return node("uuid", quote(uuid.uuidString))
    case let uuid as NSUUID:
        return node("uuid", quote(uuid.uuidString))
    case let url as NSURL:
        return urlNode(url)
    case let url as URL:
        return urlNode(url as NSURL)
    case let set as Set<AnyHashable>:
        return node("set", "[" + set.map { typed($0.base) }.sorted().joined(separator: ",") + "]")
    case let set as NSSet:
        return node("set", "[" + set.allObjects.map(typed).sorted().joined(separator: ",") + "]")
    case let string as String:
        return node("string", quote(string))
    case let date as Date:
        let seconds = date.timeIntervalSinceReferenceDate
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        let whole = seconds.rounded(.down)
        let micros = Int(((seconds - whole) * 1_000_000).rounded())
        let base = formatter.string(from: Date(timeIntervalSinceReferenceDate: whole + (micros == 1_000_000 ? 1 : 0)))
        return node("date", quote(base + "." + String(format: "%06d", micros == 1_000_000 ? 0 : micros) + "Z"))
    case let data as Data:
        return node("data", quote(data.base64EncodedString()))
    case let array as [Any]:
        return node("array", "[" + array.map(typed).joined(separator: ",") + "]")
    case let dictionary as [String: Any]:
        if dictionary.count == 1, let uid = dictionary["CF$UID"] as? NSNumber, !(uid is Bool) {
            return node("uid", quote(uid.stringValue))
        }
        return node("dict", "{" + dictionary.map { quote($0.key) + ":" + typed($0.value) }.joined(separator: ",") + "}")
    case let flag as Bool where type(of: value) == Bool.self:
        return node("bool", flag ? "true" : "false")
    case let number as NSNumber:
        switch String(cString: number.objCType) {
        case "c" where number.int64Value == 0 || number.int64Value == 1:
            // Booleans from archives arrive as CFBoolean-backed NSNumbers of type "c".
            return node("bool", number.boolValue ? "true" : "false")
        case "f", "d":
            let double = number.doubleValue
            let text: String
            if double.isNaN { text = "nan" } else if double.isInfinite { text = double < 0 ? "-inf" : "inf" } else { text = "\(double)" }
            return node("real", quote(text))
        case "Q":
            return node("integer", quote(String(number.uint64Value)))
        default:
            if number.int64Value < 0 { return node("integer", quote(String(number.int64Value))) }
            // CoreFoundation keeps 16-byte integers as 128-bit; their low 64 bits are unsigned.
            return node("integer", quote(String(number.uint64Value)))
        }
    default:
        let described = String(describing: type(of: value))
        if described.contains("UID"),
           let xml = try? PropertyListSerialization.data(fromPropertyList: [value], format: .xml, options: 0),
           let text = String(data: xml, encoding: .utf8),
           let start = text.range(of: "<integer>"), let end = text.range(of: "</integer>") {
            // Linux Foundation has no public accessor for a UID's value; its XML form carries it.
            return node("uid", quote(String(text[start.upperBound..<end.lowerBound])))
        }
        return node("unsupported", quote(described))
    }
}

// One line per file: the typed JSON, or "!" and the reason Foundation refused it.
// With --unarchive, each file is a keyed archive read by NSKeyedUnarchiver with
// secure coding and the ten userInfo classes.
var arguments = Array(CommandLine.arguments.dropFirst())
let unarchive = arguments.first == "--unarchive"
if unarchive { arguments.removeFirst() }
let userInfoClasses: [AnyClass] = [NSArray.self, NSDictionary.self, NSSet.self, NSString.self, NSNumber.self,
                                   NSData.self, NSDate.self, NSNull.self, NSUUID.self, NSURL.self]
var status: Int32 = 0
for path in arguments {
    guard let data = FileManager.default.contents(atPath: path) else {
        print("!cannot read \(path)")
        status = 1
        continue
    }
    do {
        if unarchive {
            guard let value = try NSKeyedUnarchiver.unarchivedObject(ofClasses: userInfoClasses, from: data) else {
                print("!Foundation unarchived nil")
                status = 1
                continue
            }
            print(typed(value))
        } else {
            let value = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            print(typed(value))
        }
    } catch {
        print("!Foundation refused: \(error)".replacingOccurrences(of: "\n", with: " "))
        status = 1
    }
}
exit(status)
