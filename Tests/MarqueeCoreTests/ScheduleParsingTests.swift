import MarqueeCore
import Testing

@Suite struct ScheduleParsingTests {
    @Test(arguments: [
        ("07:00", 7 * 3600), ("7:00", 7 * 3600), ("00:00", 0), ("23:59:59", 86_399), ("24:00", 86_400),
        ("24:00:00", 86_400), ("12:30:15", 45_015),
    ])
    func timesOfDayRead(text: String, seconds: Int) {
        #expect(TimeOfDay(parsing: text)?.secondsSinceMidnight == seconds)
    }

    @Test(arguments: ["7", "7:5", "07:60", "25:00", "24:01", "24:00:01", "07:00:60", "-1:00", "07:00:00:00", "", "7h", "007:00", " 07:00"])
    func malformedTimesOfDayAreRefused(text: String) {
        #expect(TimeOfDay(parsing: text) == nil)
    }

    @Test func timesOfDayPrintAsWritten() {
        #expect(TimeOfDay(parsing: "7:00")?.description == "07:00")
        #expect(TimeOfDay(parsing: "07:00:30")?.description == "07:00:30")
        #expect(TimeOfDay.endOfDay.description == "24:00")
        #expect(TimeOfDay(parsing: "7:00")?.fullDescription == "07:00:00")
    }

    @Test(arguments: [
        ("mon-fri", [Weekday.mon, .tue, .wed, .thu, .fri]), ("sat,sun", [.sat, .sun]), ("Sat, Sunday", [.sat, .sun]),
        ("fri-mon", [.fri, .sat, .sun, .mon]), ("wed", [.wed]), ("mon-sun", Weekday.allCases), ("sun-sun", [.sun]),
        ("mon,wed-thu", [.mon, .wed, .thu]),
    ])
    func daysRead(text: String, days: [Weekday]) throws {
        #expect(try WeekdaySet.parse(text).get() == WeekdaySet(days))
    }

    @Test(arguments: [
        ("tues", WeekdaySet.ParseError.unknownDay("tues")), ("mon-frei", .unknownDay("frei")), ("", .empty), (" , ", .empty),
        ("mon-", .unknownDay("")),
    ])
    func badDaysSayWhichWord(text: String, error: WeekdaySet.ParseError) {
        #expect(WeekdaySet.parse(text) == .failure(error))
    }

    @Test(arguments: [
        ([Weekday.mon, .tue, .wed, .thu, .fri], "mon-fri"), ([.mon, .wed, .fri], "mon,wed,fri"), (Weekday.allCases, "mon-sun"),
        ([.tue, .sat, .sun], "tue,sat,sun"), ([.thu, .fri, .sat, .sun], "thu-sun"),
    ])
    func daysPrintAsRanges(days: [Weekday], text: String) {
        #expect(WeekdaySet(days).description == text)
    }

    @Test(arguments: [
        ("2028-02-29", 2028, 2, 29, Weekday.tue), ("1970-01-01", 1970, 1, 1, .thu), ("2026-03-29", 2026, 3, 29, .sun),
        ("2000-02-29", 2000, 2, 29, .tue), ("1969-12-31", 1969, 12, 31, .wed), ("2026-10-25", 2026, 10, 25, .sun),
    ])
    func datesRead(text: String, year: Int, month: Int, day: Int, weekday: Weekday) throws {
        let date = try CalendarDate.parse(text).get()
        #expect((date.year, date.month, date.day) == (year, month, day))
        #expect(date.weekday == weekday)
        #expect(date.description == text)
        #expect(CalendarDate(dayNumber: date.dayNumber) == date)
    }

    @Test(arguments: [
        ("2027-02-29", CalendarDate.ParseError.nonexistent("2027-02-29", daysInMonth: 28)),
        ("1900-02-29", .nonexistent("1900-02-29", daysInMonth: 28)),
        ("2026-04-31", .nonexistent("2026-04-31", daysInMonth: 30)),
        ("2026-13-01", .malformed("2026-13-01")), ("2026-1-01", .malformed("2026-1-01")),
        ("26-01-01", .malformed("26-01-01")), ("2026/01/01", .malformed("2026/01/01")), ("2026-01-00", .malformed("2026-01-00")),
    ])
    func badDatesSayWhy(text: String, error: CalendarDate.ParseError) {
        #expect(CalendarDate.parse(text) == .failure(error))
    }

    @Test func dayNumbersRoundTripAcrossCenturies() {
        for dayNumber in stride(from: -800_000, through: 800_000, by: 997) {
            let date = CalendarDate(dayNumber: dayNumber)
            #expect(CalendarDate(year: date.year, month: date.month, day: date.day)?.dayNumber == dayNumber)
        }
        #expect(CalendarDate(year: 2028, month: 3, day: 1)!.dayNumber - CalendarDate(year: 2028, month: 2, day: 28)!.dayNumber == 2)
    }

    @Test(arguments: [
        ("2026-03-28", "2026-03-28 00:00:00"), ("2026-03-28T07:00", "2026-03-28 07:00:00"),
        ("2026-03-28 07:00:15", "2026-03-28 07:00:15"),
    ])
    func localDateTimesRead(text: String, reading: String) {
        #expect(LocalDateTime(parsingISO8601: text)?.description == reading)
    }

    @Test(arguments: [
        ("2026-03-28", "2026-03-27 23:00"), ("2026-03-29T02:30", "2026-03-29 01:00"), ("2026-03-29T12:00", "2026-03-29 10:00"),
        ("2026-03-29T02:30:00Z", "2026-03-29 02:30"), ("2026-03-29T07:00+05:30", "2026-03-29 01:30"),
        ("2026-03-29T07:00-0500", "2026-03-29 12:00"), ("2026-03-29 07:00+01", "2026-03-29 06:00"),
    ])
    func isoInstantsResolveOnTheClockUnlessTheyCarryAnOffset(text: String, utc: String) {
        #expect(ScheduleFixtures.berlin.instant(parsingISO8601: text) == ScheduleFixtures.utc(utc))
    }

    @Test(arguments: ["tomorrow", "2026-03-29T25:00", "2026-03-29T07:00+1", "2026-03-29T07:00+15:00", "2026-02-30", "2026-03-29T"])
    func badISOInstantsAreRefused(text: String) {
        #expect(ScheduleFixtures.berlin.instant(parsingISO8601: text) == nil)
    }
}
