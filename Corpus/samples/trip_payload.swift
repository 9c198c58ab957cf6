// The bundled sample payload (README's main job): a Handoff payload of a trip
// planner, as a sender would put it on the wire — its document already a
// portable container reference — archived by Linux Foundation's
// NSKeyedArchiver. Usage: swiftc trip_payload.swift -o t && ./t trip.payload
import Foundation

let userInfo: NSDictionary = [
    "com.example.planner.version": "1.0",
    "document": NSURL(string: "icloud-container:iCloud.com.example.Planner/Documents/Trip%20to%20Lisbon.plan")!,
    "selection": NSArray(array: [NSNumber(value: 3), NSNumber(value: 7)]),
    "zoom": NSNumber(value: 1.25),
    "day": NSDate(timeIntervalSinceReferenceDate: 786_000_000),
    "tripID": NSUUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!,
]
let envelope: NSDictionary = [
    "activityType": "com.example.planner.edit-trip",
    "title": "Editing “Trip to Lisbon”",
    "webpageURL": NSURL(string: "https://planner.example.com/trips/6F9619FF")!,
    "userInfo": userInfo,
    "requiredUserInfoKeys": NSSet(array: ["document", "com.example.planner.version"]),
    "keywords": NSSet(array: ["trip", "Lisbon"]),
]
let data = try NSKeyedArchiver.archivedData(withRootObject: envelope, requiringSecureCoding: true)
try data.write(to: URL(fileURLWithPath: CommandLine.arguments[1]))
