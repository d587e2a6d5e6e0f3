import Foundation
import MarqueeCore
import Testing

/// The evaluator on fixed instants: which daypart and items play, whether the screen is on, and
/// when that next changes.
@Suite struct TimetableTests {
    typealias F = ScheduleFixtures

    /// `breakfast 0,2 on`, `idle off`: a state in one short phrase.
    static func describe(_ state: ScheduleState, in timetable: Timetable) -> String {
        let power = state.displayOn ? "on" : "off"
        guard let daypart = state.daypart else { return "idle \(power)" }
        let items = state.items.map(String.init).joined(separator: ",")
        return "\(timetable.dayparts[daypart].name) \(items.isEmpty ? "-" : items) \(power)"
    }

    static func describe(_ timetable: Timetable, at instant: Date) -> String {
        describe(timetable.state(at: instant), in: timetable)
    }

    /// Breakfast and lunch overlap from 10:00 to 11:00 on weekdays; the default fills the rest.
    static func restaurant(lunchPriority: Int = 0, withDefault: Bool = true) -> Timetable {
        var dayparts = [
            Daypart(name: "breakfast", schedule: F.schedule(F.window("mon-fri", "06:00", "11:00")), itemSchedules: [nil]),
            Daypart(name: "lunch", schedule: F.schedule(F.window("mon-fri", "10:00", "15:00")), priority: lunchPriority,
                    itemSchedules: [nil, F.schedule(F.window("mon-fri", "12:00", "13:00"))]),
        ]
        if withDefault {
            dayparts.insert(Daypart(name: "default", itemSchedules: [nil]), at: 0)
        }
        return Timetable(clock: F.berlin, dayparts: dayparts)
    }

    @Test(arguments: [
        // 2026-06-15 is a Monday; 2026-06-13 a Saturday.
        ("2026-06-15 05:59", "default 0 on"), ("2026-06-15 06:00", "breakfast 0 on"),
        ("2026-06-15 10:30", "breakfast 0 on"), ("2026-06-15 11:00", "lunch 0 on"),
        ("2026-06-15 12:30", "lunch 0,1 on"), ("2026-06-15 13:00", "lunch 0 on"),
        ("2026-06-15 15:00", "default 0 on"), ("2026-06-13 10:30", "default 0 on"),
    ])
    func onOverlapTheFirstListedWins(reading: String, expected: String) {
        let timetable = Self.restaurant()
        #expect(Self.describe(timetable, at: F.local(reading, F.berlin)) == expected)
    }

    @Test(arguments: [
        ("2026-06-15 09:59", "breakfast 0 on"), ("2026-06-15 10:00", "lunch 0 on"), ("2026-06-15 10:30", "lunch 0 on"),
    ])
    func aHigherPriorityWinsTheOverlap(reading: String, expected: String) {
        let timetable = Self.restaurant(lunchPriority: 5)
        #expect(Self.describe(timetable, at: F.local(reading, F.berlin)) == expected)
    }

    @Test func withoutADefaultNothingPlaysOutsideTheWindows() {
        let timetable = Self.restaurant(withDefault: false)
        #expect(Self.describe(timetable, at: F.local("2026-06-15 16:00", F.berlin)) == "idle on")
        #expect(timetable.state(at: F.local("2026-06-15 16:00", F.berlin)).isIdle)
    }

    @Test func theDefaultKeepsItsOwnWindows() {
        let timetable = Timetable(clock: F.berlin, dayparts: [
            Daypart(name: "default", schedule: F.schedule(F.window("mon-sun", "08:00", "20:00")), itemSchedules: [nil]),
        ])
        #expect(Self.describe(timetable, at: F.local("2026-06-15 12:00", F.berlin)) == "default 0 on")
        #expect(Self.describe(timetable, at: F.local("2026-06-15 21:00", F.berlin)) == "idle on")
    }

    @Test func aDaypartWithNoItemInItsWindowIsIdle() {
        let timetable = Timetable(clock: F.berlin, dayparts: [
            Daypart(name: "promo", itemSchedules: [F.schedule(F.window("sat-sun"))]),
        ], displayPower: DisplayPowerSchedule(offWhenIdle: true))
        #expect(Self.describe(timetable, at: F.local("2026-06-15 12:00", F.berlin)) == "promo - off")
        #expect(Self.describe(timetable, at: F.local("2026-06-13 12:00", F.berlin)) == "promo 0 on")
    }

    @Test(arguments: [
        ("2026-06-15 21:59", "default 0 on"), ("2026-06-15 22:00", "default 0 off"), ("2026-06-16 06:59", "default 0 off"),
        ("2026-06-16 07:00", "default 0 on"), ("2026-06-13 23:00", "default 0 on"),
    ])
    func displayPowerWindowsCrossMidnight(reading: String, expected: String) {
        let timetable = Timetable(clock: F.berlin, dayparts: [Daypart(name: "default", itemSchedules: [nil])],
                                  displayPower: DisplayPowerSchedule(offWindows: F.schedule(F.window("mon-fri", "22:00", "07:00"))))
        #expect(Self.describe(timetable, at: F.local(reading, F.berlin)) == expected)
    }

    @Test(arguments: [
        // Friday 22:00 to Saturday 02:00: `days` names the day the window starts on.
        ("2026-06-19 21:59", "idle on"), ("2026-06-19 22:00", "late 0 on"), ("2026-06-20 01:59", "late 0 on"),
        ("2026-06-20 02:00", "idle on"), ("2026-06-20 23:00", "idle on"), ("2026-06-19 01:00", "idle on"),
    ])
    func aWindowCrossingMidnightBelongsToTheDayItStarts(reading: String, expected: String) {
        let timetable = Timetable(clock: F.berlin, dayparts: [
            Daypart(name: "late", schedule: F.schedule(F.window("fri", "22:00", "02:00")), itemSchedules: [nil]),
        ])
        #expect(Self.describe(timetable, at: F.local(reading, F.berlin)) == expected)
    }

    // MARK: - DST

    /// 02:30 does not exist on 2026-03-29 in Berlin: the window opens when the clock jumps to 03:00.
    @Test(arguments: [
        ("2026-03-29 00:59:59", "idle on"), ("2026-03-29 01:00", "night 0 on"), ("2026-03-29 01:59:59", "night 0 on"),
        ("2026-03-29 02:00", "idle on"),
    ])
    func aWindowFromASkippedTimeOpensWhenTheGapEnds(utc: String, expected: String) {
        let timetable = Timetable(clock: F.berlin, dayparts: [
            Daypart(name: "night", schedule: F.schedule(F.window("sun", "02:30", "04:00")), itemSchedules: [nil]),
        ])
        #expect(Self.describe(timetable, at: F.utc(utc)) == expected)
        #expect(timetable.nextChange(after: F.utc("2026-03-28 12:00")) == F.utc("2026-03-29 01:00"))
        #expect(timetable.nextChange(after: F.utc("2026-03-29 01:00")) == F.utc("2026-03-29 02:00"))
    }

    @Test func newYorksSpringForwardWindowAt0230OpensAt0300EDT() {
        let timetable = Timetable(clock: F.newYork, dayparts: [
            Daypart(name: "night", schedule: F.schedule(F.window("sun", "02:30", "03:30")), itemSchedules: [nil]),
        ])
        let changes = timetable.changes(from: F.utc("2026-03-08 00:00"), to: F.utc("2026-03-09 00:00"))
        #expect(changes.map(\.start) == [F.utc("2026-03-08 00:00"), F.utc("2026-03-08 07:00"), F.utc("2026-03-08 07:30")])
        #expect(changes.map { Self.describe($0.state, in: timetable) } == ["idle on", "night 0 on", "idle on"])
    }

    @Test func aWindowInsideTheSkippedHourDoesNotHappenThatDay() {
        let timetable = Timetable(clock: F.berlin, dayparts: [
            Daypart(name: "gap", schedule: F.schedule(F.window("sun", "02:00", "03:00")), itemSchedules: [nil]),
        ])
        #expect(Self.describe(timetable, at: F.utc("2026-03-29 01:00")) == "idle on")
        // The next Sunday's 02:00 CEST.
        #expect(timetable.nextChange(after: F.utc("2026-03-28 12:00")) == F.utc("2026-04-05 00:00"))
    }

    /// On 2026-10-25 Berlin reads 02:00–02:59 twice; a window's edges happen the first time.
    @Test func inTheRepeatedHourEdgesHappenTheFirstTime() {
        let timetable = Timetable(clock: F.berlin, dayparts: [
            Daypart(name: "short", schedule: F.schedule(F.window("sun", "02:30", "02:45")), itemSchedules: [nil]),
            Daypart(name: "long", schedule: F.schedule(F.window("sun", "01:00", "03:00")), itemSchedules: [nil]),
        ])
        let changes = timetable.changes(from: F.utc("2026-10-24 22:00"), to: F.utc("2026-10-25 04:00"))
        #expect(changes.map(\.start) == [
            F.utc("2026-10-24 22:00"), F.utc("2026-10-24 23:00"), F.utc("2026-10-25 00:30"),
            F.utc("2026-10-25 00:45"), F.utc("2026-10-25 02:00"),
        ])
        #expect(changes.map { Self.describe($0.state, in: timetable) } == ["idle on", "long 0 on", "short 0 on", "long 0 on", "idle on"])
    }

    @Test func newYorksRepeatedHourCountsOnceForAnOvernightWindow() {
        // Saturday 22:00 to Sunday 01:30: ends at the first 01:30 (EDT), before the clocks go back.
        let timetable = Timetable(clock: F.newYork, dayparts: [
            Daypart(name: "late", schedule: F.schedule(F.window("sat", "22:00", "01:30")), itemSchedules: [nil]),
        ])
        #expect(Self.describe(timetable, at: F.utc("2026-11-01 05:29")) == "late 0 on")
        #expect(Self.describe(timetable, at: F.utc("2026-11-01 06:00")) == "idle on")
        #expect(timetable.nextChange(after: F.utc("2026-11-01 03:00")) == F.utc("2026-11-01 05:30"))
    }

    // MARK: - Dates

    @Test func aLeapDayWindowHappensOnlyOnTheLeapDay() {
        let leapDay = F.date("2028-02-29")
        let timetable = Timetable(clock: F.berlin, dayparts: [
            Daypart(name: "leap", schedule: F.schedule(F.window(dates: .dates([leapDay]))), itemSchedules: [nil]),
            Daypart(name: "tuesdays", schedule: F.schedule(F.window("tue", "22:00", "02:00",
                                                                    dates: .between(from: F.date("2028-02-27"), until: F.date("2028-03-01")))),
                    itemSchedules: [nil]),
        ])
        let changes = timetable.changes(from: F.local("2028-02-28 12:00", F.berlin), to: F.local("2028-03-02 00:00", F.berlin))
        #expect(changes.map(\.start) == [
            F.local("2028-02-28 12:00", F.berlin), F.local("2028-02-29 00:00", F.berlin), F.local("2028-03-01 00:00", F.berlin),
            F.local("2028-03-01 02:00", F.berlin),
        ])
        #expect(changes.map { Self.describe($0.state, in: timetable) } == ["idle on", "leap 0 on", "tuesdays 0 on", "idle on"])
    }

    @Test func aDateRangeIncludesBothEnds() {
        let timetable = Timetable(clock: F.utcClock, dayparts: [
            Daypart(name: "promo", schedule: F.schedule(F.window(dates: .between(from: F.date("2026-12-01"), until: F.date("2026-12-24")))),
                    itemSchedules: [nil]),
        ])
        #expect(Self.describe(timetable, at: F.utc("2026-11-30 23:59:59")) == "idle on")
        #expect(Self.describe(timetable, at: F.utc("2026-12-01 00:00")) == "promo 0 on")
        #expect(Self.describe(timetable, at: F.utc("2026-12-24 23:59:59")) == "promo 0 on")
        #expect(Self.describe(timetable, at: F.utc("2026-12-25 00:00")) == "idle on")
        #expect(timetable.nextChange(after: F.utc("2026-12-25 00:00")) == nil)
    }

    // MARK: - Next change

    @Test func nextChangeSkipsEdgesThatChangeNothing() {
        // Two windows meet at noon: the edge between them changes nothing.
        let timetable = Timetable(clock: F.berlin, dayparts: [
            Daypart(name: "day", schedule: F.schedule(F.window("mon-sun", "06:00", "12:00"), F.window("mon-sun", "12:00", "18:00")),
                    itemSchedules: [nil]),
        ])
        #expect(timetable.nextChange(after: F.local("2026-06-15 07:00", F.berlin)) == F.local("2026-06-15 18:00", F.berlin))
        #expect(timetable.nextChange(after: F.local("2026-06-15 18:00", F.berlin)) == F.local("2026-06-16 06:00", F.berlin))
    }

    @Test func nextChangeIsNilWhenNothingEverChanges() {
        let unscheduled = Timetable(clock: F.berlin, dayparts: [Daypart(name: "default", itemSchedules: [nil, nil])])
        #expect(unscheduled.nextChange(after: F.utc("2026-06-15 00:00")) == nil)
        let allDayInTwoHalves = Timetable(clock: F.berlin, dayparts: [
            Daypart(name: "day", schedule: F.schedule(F.window("mon-sun", "00:00", "12:00"), F.window("mon-sun", "12:00", "24:00")),
                    itemSchedules: [nil]),
        ])
        #expect(allDayInTwoHalves.nextChange(after: F.utc("2026-06-15 00:00")) == nil)
    }

    @Test func nextChangeStopsAtTheLimit() {
        let timetable = Self.restaurant()
        let monday = F.local("2026-06-15 16:00", F.berlin)
        #expect(timetable.nextChange(after: monday, before: F.local("2026-06-16 05:00", F.berlin)) == nil)
        #expect(timetable.nextChange(after: monday, before: F.local("2026-06-16 07:00", F.berlin)) == F.local("2026-06-16 06:00", F.berlin))
    }

    @Test func itemWindowsAndDisplayPowerAreChangesToo() {
        var timetable = Self.restaurant()
        timetable.displayPower = DisplayPowerSchedule(offWindows: F.schedule(F.window("mon-sun", "22:00", "06:00")))
        let changes = timetable.changes(from: F.local("2026-06-15 00:00", F.berlin), to: F.local("2026-06-16 00:00", F.berlin))
        #expect(changes.map { F.berlin.reading(at: $0.start).time.description } == ["00:00", "06:00", "11:00", "12:00", "13:00", "15:00", "22:00"])
        #expect(changes.map { Self.describe($0.state, in: timetable) } == [
            "default 0 off", "breakfast 0 on", "lunch 0 on", "lunch 0,1 on", "lunch 0 on", "default 0 on", "default 0 off",
        ])
    }

    /// A device without an RTC boots in 1970 and jumps to now when NTP syncs: the evaluator keeps
    /// no memory, so asking again after the jump gives now's answer at once.
    @Test func aClockJumpFrom1970IsJustAnotherQuestion() {
        let timetable = Timetable(clock: F.berlin, dayparts: [
            Daypart(name: "promo", schedule: F.schedule(F.window(dates: .between(from: F.date("2026-12-01"), until: nil))),
                    priority: 1, itemSchedules: [nil]),
            Daypart(name: "default", itemSchedules: [nil]),
        ])
        let boot = Date(timeIntervalSince1970: 0)
        #expect(Self.describe(timetable, at: boot) == "default 0 on")
        #expect(timetable.nextChange(after: boot) == F.local("2026-12-01 00:00", F.berlin))
        let synced = F.utc("2026-12-05 09:00")
        #expect(Self.describe(timetable, at: synced) == "promo 0 on")
        #expect(timetable.nextChange(after: synced) == nil)
    }
}
