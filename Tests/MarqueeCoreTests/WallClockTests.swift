import Foundation
import MarqueeCore
import Testing

/// Readings resolved to instants across DST: a skipped reading happens when the gap ends, a
/// repeated one the first time (as cron and systemd timers do).
@Suite struct WallClockTests {
    typealias F = ScheduleFixtures

    @Test(arguments: [
        // Europe/Berlin, spring forward on 2026-03-29: 02:00 CET jumps to 03:00 CEST at 01:00 UTC.
        ("2026-03-29 01:59:59", "2026-03-29 00:59:59"), ("2026-03-29 02:00", "2026-03-29 01:00"),
        ("2026-03-29 02:30", "2026-03-29 01:00"), ("2026-03-29 02:59:59", "2026-03-29 01:00"),
        ("2026-03-29 03:00", "2026-03-29 01:00"), ("2026-03-29 03:30", "2026-03-29 01:30"),
        // Fall back on 2026-10-25: 03:00 CEST goes back to 02:00 CET at 01:00 UTC; 02:xx happens twice.
        ("2026-10-25 01:59", "2026-10-24 23:59"), ("2026-10-25 02:00", "2026-10-25 00:00"),
        ("2026-10-25 02:30", "2026-10-25 00:30"), ("2026-10-25 02:59:59", "2026-10-25 00:59:59"),
        ("2026-10-25 03:00", "2026-10-25 02:00"),
        // An ordinary winter and summer day.
        ("2026-01-15 12:00", "2026-01-15 11:00"), ("2026-07-15 12:00", "2026-07-15 10:00"),
    ])
    func berlinReadingsResolve(reading: String, utc: String) {
        #expect(F.local(reading, F.berlin) == F.utc(utc))
    }

    @Test(arguments: [
        // America/New_York, spring forward on 2026-03-08: 02:00 EST jumps to 03:00 EDT at 07:00 UTC.
        ("2026-03-08 01:30", "2026-03-08 06:30"), ("2026-03-08 02:30", "2026-03-08 07:00"),
        ("2026-03-08 03:30", "2026-03-08 07:30"),
        // Fall back on 2026-11-01: 02:00 EDT goes back to 01:00 EST at 06:00 UTC; 01:xx happens twice.
        ("2026-11-01 00:30", "2026-11-01 04:30"), ("2026-11-01 01:30", "2026-11-01 05:30"),
        ("2026-11-01 02:00", "2026-11-01 07:00"),
    ])
    func newYorkReadingsResolve(reading: String, utc: String) {
        #expect(F.local(reading, F.newYork) == F.utc(utc))
    }

    @Test func bothPassesOfTheRepeatedHourReadTheSame() {
        #expect(F.newYork.reading(at: F.utc("2026-11-01 05:30")).description == "2026-11-01 01:30:00")
        #expect(F.newYork.reading(at: F.utc("2026-11-01 06:30")).description == "2026-11-01 01:30:00")
        #expect(F.newYork.offset(at: F.utc("2026-11-01 05:30")) == -4 * 3600)
        #expect(F.newYork.offset(at: F.utc("2026-11-01 06:30")) == -5 * 3600)
    }

    @Test func readingsRoundTripEveryQuarterHourOfAYear() {
        var instant = F.utc("2026-01-01 00:00")
        let end = F.utc("2027-01-01 00:00")
        while instant < end {
            for clock in [F.berlin, F.newYork] {
                let reading = clock.reading(at: instant)
                // The repeated hour's second pass resolves to its first pass, an hour earlier.
                let resolved = clock.instant(of: reading)
                #expect(resolved == instant || resolved == instant.addingTimeInterval(-3600), "\(reading)")
            }
            instant.addTimeInterval(900)
        }
    }
}
