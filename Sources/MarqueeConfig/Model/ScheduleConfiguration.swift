import Foundation

/// The config's top-level `schedule:` section: settings every schedule in the file shares.
public struct ScheduleConfiguration: Sendable, Equatable, Codable {
    /// `schedule.timezone`: the IANA zone every time of day and date is read in; nil: the
    /// system's zone (`TZ`, else `/etc/localtime`), read when the timetable is made.
    public var timeZoneIdentifier: String?

    private enum CodingKeys: String, CodingKey {
        case timeZoneIdentifier = "timezone"
    }

    public init(timeZoneIdentifier: String? = nil) {
        self.timeZoneIdentifier = timeZoneIdentifier
    }

    /// The configured zone, else `system`.
    public func timeZone(system: TimeZone = .current) -> TimeZone {
        timeZoneIdentifier.flatMap(TimeZone.init(identifier:)) ?? system
    }
}
