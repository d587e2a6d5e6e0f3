import MarqueeCore
import Testing

@Suite struct ScheduleOverlapTests {
    typealias F = ScheduleFixtures

    @Test func weekdayWindowsThatShareAnHourOverlapEveryWeek() {
        let breakfast = F.schedule(F.window("mon-fri", "06:00", "11:00"))
        let lunch = F.schedule(F.window("mon-fri", "10:00", "15:00"))
        #expect(ScheduleOverlap.find(breakfast, lunch)?.description == "mon 10:00")
    }

    @Test func windowsThatOnlyTouchDoNotOverlap() {
        let morning = F.schedule(F.window("mon-sun", "06:00", "11:00"))
        let noon = F.schedule(F.window("mon-sun", "11:00", "15:00"))
        #expect(ScheduleOverlap.find(morning, noon) == nil)
    }

    @Test func differentDaysDoNotOverlap() {
        #expect(ScheduleOverlap.find(F.schedule(F.window("mon-fri")), F.schedule(F.window("sat-sun"))) == nil)
    }

    @Test func aWindowCrossingMidnightOverlapsTheNextDaysMorning() {
        let late = F.schedule(F.window("fri", "22:00", "02:00"))
        let saturdayMorning = F.schedule(F.window("sat", "01:00", "09:00"))
        #expect(ScheduleOverlap.find(late, saturdayMorning)?.description == "sat 01:00")
    }

    @Test func datedWindowsOverlapOnlyWhereTheirDatesMeet() {
        let december = F.schedule(F.window(dates: .between(from: F.date("2026-12-01"), until: F.date("2026-12-24"))))
        let christmas = F.schedule(F.window("mon-sun", "18:00", "22:00", dates: .dates([F.date("2026-12-24"), F.date("2026-12-25")])))
        let newYear = F.schedule(F.window(dates: .dates([F.date("2027-01-01")])))
        #expect(ScheduleOverlap.find(december, christmas)?.description == "2026-12-24 18:00")
        #expect(ScheduleOverlap.find(december, newYear) == nil)
        #expect(ScheduleOverlap.find(nil, newYear)?.description == "2027-01-01 00:00")
    }

    @Test func aScheduleLessDaypartOverlapsEverything() {
        #expect(ScheduleOverlap.find(nil, F.schedule(F.window("wed", "09:00", "10:00")))?.description == "wed 09:00")
    }
}
