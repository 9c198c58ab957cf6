/// The classes a userInfo archive may hold, with the class chains Apple's
/// NSKeyedArchiver writes for them (most specific first) and the fields each
/// reads. See `Specs/keyed-archive.md`, "Classes".
enum ArchiveClass: String, CaseIterable, Sendable {
    case array = "NSArray", mutableArray = "NSMutableArray"
    case dictionary = "NSDictionary", mutableDictionary = "NSMutableDictionary"
    case set = "NSSet", mutableSet = "NSMutableSet"
    case string = "NSString", mutableString = "NSMutableString"
    case data = "NSData", mutableData = "NSMutableData"
    case date = "NSDate"
    case null = "NSNull"
    case uuid = "NSUUID"
    case url = "NSURL"

    /// The class's place among `allCases`, for tables indexed by class.
    var ordinal: Int {
        switch self {
        case .array: return 0
        case .mutableArray: return 1
        case .dictionary: return 2
        case .mutableDictionary: return 3
        case .set: return 4
        case .mutableSet: return 5
        case .string: return 6
        case .mutableString: return 7
        case .data: return 8
        case .mutableData: return 9
        case .date: return 10
        case .null: return 11
        case .uuid: return 12
        case .url: return 13
        }
    }

    /// The chain Apple writes in `$classes`.
    var chain: [String] {
        switch self {
        case .mutableArray: return ["NSMutableArray", "NSArray", "NSObject"]
        case .mutableDictionary: return ["NSMutableDictionary", "NSDictionary", "NSObject"]
        case .mutableSet: return ["NSMutableSet", "NSSet", "NSObject"]
        case .mutableString: return ["NSMutableString", "NSString", "NSObject"]
        case .mutableData: return ["NSMutableData", "NSData", "NSObject"]
        default: return [rawValue, "NSObject"]
        }
    }

    /// Whether `field` is one of the `NS.` fields the class reads; any other
    /// `NS.` or `$` field is refused. (Compared without building a set: this
    /// runs for every field of every instance read.)
    func reads(_ field: String) -> Bool {
        switch self {
        case .array, .mutableArray, .set, .mutableSet: return field == Field.objects
        case .dictionary, .mutableDictionary: return field == Field.keys || field == Field.objects
        case .string, .mutableString: return field == Field.string
        case .data, .mutableData: return field == Field.data
        case .date: return field == Field.time
        case .null: return false
        case .uuid: return field == Field.uuidBytes
        case .url: return field == Field.base || field == Field.relative
        }
    }
}

/// Names in archives.
enum Field {
    static let archiver = "$archiver", version = "$version", top = "$top", objects$ = "$objects"
    static let root = "root", legacyRoot = "$$0"
    static let nullObject = "$null"
    static let `class` = "$class", classname = "$classname", classes = "$classes", classhints = "$classhints"
    static let objects = "NS.objects", keys = "NS.keys", string = "NS.string", data = "NS.data"
    static let time = "NS.time", uuidBytes = "NS.uuidbytes", base = "NS.base", relative = "NS.relative"
    static let archiverName = "NSKeyedArchiver"
    static let archiveVersion = 100_000
}
