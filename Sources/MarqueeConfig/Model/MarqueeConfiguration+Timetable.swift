import Foundation
import MarqueeCore

extension MarqueeConfiguration {
    /// What the schedule evaluator needs from this config: the dayparts in file order, the
    /// display's power windows and the clock of `schedule.timezone` (else `systemTimeZone`).
    public func timetable(systemTimeZone: TimeZone = .current) -> Timetable {
        Timetable(clock: WallClock(timeZone: schedule.timeZone(system: systemTimeZone)),
                  dayparts: dayparts.map(\.daypart),
                  displayPower: display.power.schedule)
    }

    /// The zone as the config names it (`UTC` stays `UTC`, which Foundation calls `GMT`), or the
    /// system's with a note that it is the system's: `Europe/Berlin (the system's zone)`.
    public func timeZoneName(systemTimeZone: TimeZone = .current) -> String {
        schedule.timeZoneIdentifier ?? "\(systemTimeZone.identifier) (the system's zone)"
    }

    /// Whether anything in the config depends on the clock.
    public var isScheduled: Bool {
        dayparts.contains { $0.playlist.schedule != nil || $0.playlist.items.contains { $0.schedule != nil } }
            || !display.power.offWindows.isEmpty || display.power.offWhenIdle || dayparts.count > 1
    }
}
