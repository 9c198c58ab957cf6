// The states the Codable benchmark encodes: what a Handoff app keeps in its
// userInfo (issue 29's trip state) and the README's `TripState`.
import FoundationEssentials

/// One stop of a trip.
struct Stop: Codable, Equatable, Sendable {
    var name: String
    var latitude: Double
    var longitude: Double
    var arrival: Date
    var nights: Int
    var visited: Bool
}

/// A Handoff-sized state (~1 KB on the wire): twelve fields with a URL, a
/// UUID, six nested stops, dates, 96 bytes of data and a dictionary of flags.
struct HandoffTrip: Codable, Equatable, Sendable {
    var id: UUID
    var title: String
    var document: URL
    var created: Date
    var modified: Date
    var stops: [Stop]
    var thumbnail: Data
    var flags: [String: Bool]
    var zoom: Double
    var page: Int
    var tags: [String]
    var owner: String?

    static let sample: HandoffTrip = {
        let base = Date(timeIntervalSinceReferenceDate: 786_000_000.25)
        let places = ["Lisbon", "Porto", "Coimbra", "Évora", "Faro", "Sintra"]
        let stops = places.enumerated().map { index, name in
            Stop(name: name, latitude: 38.7 + Double(index) * 0.31, longitude: -9.14 + Double(index) * 0.17,
                 arrival: base.addingTimeInterval(Double(index) * 86_400), nights: index % 3 + 1, visited: index < 2)
        }
        return HandoffTrip(
            id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
            title: "Portugal in spring",
            document: URL(filePath: "/Users/ada/Library/Mobile Documents/iCloud~com~example~Planner/Documents/Portugal.plan"),
            created: base, modified: base.addingTimeInterval(3_600.5), stops: stops,
            thumbnail: Data((0..<96).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }),
            flags: ["showsMap": true, "metric": true, "offline": false, "shared": true],
            zoom: 1.25, page: 3, tags: ["holiday", "family", "2026"], owner: "ada")
    }()
}

/// The README's state (Swift API example).
struct TripState: Codable, Equatable, Sendable {
    var document: URL
    var selection: [Int]
    var zoom: Double

    static let sample = TripState(
        document: URL(filePath: "/Users/ada/Library/Mobile Documents/iCloud~com~example~Planner/Documents/Trip.plan"),
        selection: [3, 7], zoom: 1.25)
}
