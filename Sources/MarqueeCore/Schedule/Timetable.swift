/// Everything that decides what plays when: the dayparts in the order the config lists them, the
/// display's power windows, and the clock (time zone) their times are read on.
///
/// It holds no state: `state(at:)` and `nextChange(after:)` answer from the instant alone, so the
/// engine can ask again after any wall-clock jump (an NTP sync out of 1970, a manual `date -s`).
public struct Timetable: Sendable {
    public var clock: WallClock
    public var dayparts: [Daypart]
    public var displayPower: DisplayPowerSchedule

    public init(clock: WallClock, dayparts: [Daypart], displayPower: DisplayPowerSchedule = .alwaysOn) {
        self.clock = clock
        self.dayparts = dayparts
        self.displayPower = displayPower
    }

    /// Every schedule whose edges can change the state.
    var allSchedules: [Schedule] {
        dayparts.flatMap { [$0.schedule].compactMap { $0 } + $0.itemSchedules.compactMap { $0 } }
            + [displayPower.offWindows].compactMap { $0 }
    }
}
