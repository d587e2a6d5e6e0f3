import Foundation
import Testing

/// `marquee schedule`: the timetable an operator previews, printed line by line.
@Suite struct ScheduleCommandTests {
    /// New York's spring-forward night: the 02:30 window and the display's 02:00 "on" both fall
    /// into the skipped hour and happen when the clocks reach 03:00 EDT.
    static let config = """
        schedule:
          timezone: America/New_York
        playlists:
          night:
            schedule: {days: sun, from: "02:30", to: "04:00"}
            items: [owl.mp4]
          morning:
            schedule: {days: mon-fri, from: "07:00", to: "10:00"}
            items:
              - coffee.mp4
              - url: media/news.mp4
                title: News
                schedule: {from: "08:00", to: "09:00"}
          default:
            items: [loop.mp4]
        display:
          power:
            windows: [{off: "23:00", on: "02:00"}]
        """

    static func workspace(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("marquee-cli-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        return folder
    }

    @Test func printsOneLinePerChangeInTheSchedulesZone() throws {
        let folder = try Self.workspace(["cafe.yaml": Self.config])
        defer { try? FileManager.default.removeItem(at: folder) }

        let outcome = try MarqueeProcess.run(["schedule", "cafe.yaml", "--from", "2026-03-07T20:00", "--to", "2026-03-09T12:00"],
                                             in: folder)

        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.standardError == "")
        #expect(outcome.outputLines == [
            "cafe.yaml: times in America/New_York, from Sat 2026-03-07 20:00:00 -05:00 until Mon 2026-03-09 12:00:00 -04:00",
            "Sat 2026-03-07 20:00:00 -05:00  display on   default: loop.mp4",
            "Sat 2026-03-07 23:00:00 -05:00  display off  default: loop.mp4",
            "Sun 2026-03-08 03:00:00 -04:00  display on   night: owl.mp4",
            "Sun 2026-03-08 04:00:00 -04:00  display on   default: loop.mp4",
            "Sun 2026-03-08 23:00:00 -04:00  display off  default: loop.mp4",
            "Mon 2026-03-09 02:00:00 -04:00  display on   default: loop.mp4",
            "Mon 2026-03-09 07:00:00 -04:00  display on   morning: coffee.mp4",
            "Mon 2026-03-09 08:00:00 -04:00  display on   morning: coffee.mp4, News",
            "Mon 2026-03-09 09:00:00 -04:00  display on   morning: coffee.mp4",
            "Mon 2026-03-09 10:00:00 -04:00  display on   default: loop.mp4",
        ])
    }

    @Test func anInstantWithAnOffsetIsTakenAsItSays() throws {
        let folder = try Self.workspace(["cafe.yaml": Self.config])
        defer { try? FileManager.default.removeItem(at: folder) }

        let outcome = try MarqueeProcess.run(["schedule", "cafe.yaml", "--from", "2026-03-09T11:30:00Z", "--to", "2026-03-09T15:00Z"],
                                             in: folder)

        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.outputLines == [
            "cafe.yaml: times in America/New_York, from Mon 2026-03-09 07:30:00 -04:00 until Mon 2026-03-09 11:00:00 -04:00",
            "Mon 2026-03-09 07:30:00 -04:00  display on   morning: coffee.mp4",
            "Mon 2026-03-09 08:00:00 -04:00  display on   morning: coffee.mp4, News",
            "Mon 2026-03-09 09:00:00 -04:00  display on   morning: coffee.mp4",
            "Mon 2026-03-09 10:00:00 -04:00  display on   default: loop.mp4",
        ])
    }

    @Test func withoutADefaultTheGapsSayNothingPlays() throws {
        let folder = try Self.workspace(["shop.yaml": """
            schedule: {timezone: UTC}
            playlist:
              schedule: {days: sat, from: "22:00", to: "02:00"}
              items: [late.mp4]
            display:
              power: {offWhenIdle: true}
            """])
        defer { try? FileManager.default.removeItem(at: folder) }

        let outcome = try MarqueeProcess.run(["schedule", "shop.yaml", "--from", "2026-06-06", "--to", "2026-06-08"], in: folder)

        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.outputLines == [
            "shop.yaml: times in UTC, from Sat 2026-06-06 00:00:00 +00:00 until Mon 2026-06-08 00:00:00 +00:00",
            "Sat 2026-06-06 00:00:00 +00:00  display off  nothing plays",
            "Sat 2026-06-06 22:00:00 +00:00  display on   playlist: late.mp4",
            "Sun 2026-06-07 02:00:00 +00:00  display off  nothing plays",
        ])
    }

    @Test func withoutFromItStartsNowAndCoversAWeek() throws {
        let folder = try Self.workspace(["cafe.yaml": Self.config])
        defer { try? FileManager.default.removeItem(at: folder) }

        let outcome = try MarqueeProcess.run(["schedule", "cafe.yaml"], in: folder)

        #expect(outcome.status == 0, "\(outcome)")
        // Each weekday has morning, news and its end, default; each night off and on.
        #expect(outcome.outputLines.count > 30, "\(outcome)")
        #expect(outcome.outputLines.first?.hasPrefix("cafe.yaml: times in America/New_York, from ") == true)
    }

    @Test func aBrokenConfigPrintsItsProblemsAndNoTimetable() throws {
        let folder = try Self.workspace(["broken.yaml": """
            schedule:
              timezone: Mars/Olympus_Mons
            playlist:
              schedule: {from: "07:00", to: "07:00"}
              items: [a.mp4]
            """])
        defer { try? FileManager.default.removeItem(at: folder) }

        let outcome = try MarqueeProcess.run(["schedule", "broken.yaml"], in: folder)

        #expect(outcome.status == 1)
        #expect(outcome.standardOutput == "")
        #expect(outcome.standardError.split(separator: "\n").map(String.init) == [
            "broken.yaml:2:13: error: unknown time zone 'Mars/Olympus_Mons' (expected an IANA name such as Europe/Berlin or America/New_York)",
            "broken.yaml:4:33: error: 'to' is the same time as 'from' (07:00): the window would be empty; leave both out for the whole day",
        ])
    }

    @Test func aBadTimeArgumentIsOneLine() throws {
        let folder = try Self.workspace(["cafe.yaml": Self.config])
        defer { try? FileManager.default.removeItem(at: folder) }

        let outcome = try MarqueeProcess.run(["schedule", "cafe.yaml", "--from", "next tuesday"], in: folder)
        let backwards = try MarqueeProcess.run(["schedule", "cafe.yaml", "--from", "2026-03-09", "--to", "2026-03-08"], in: folder)

        #expect(outcome.status == 1)
        #expect(outcome.standardError == "--from: bad time 'next tuesday' (expected an ISO 8601 date or date and time, e.g. 2026-03-28, 2026-03-28T07:00 or 2026-03-28T07:00:00+01:00)\n")
        #expect(backwards.status == 1)
        #expect(backwards.standardError == "--to must be after --from\n")
    }

    @Test func checkSummarisesDaypartsAndWarnsAboutOverlaps() throws {
        let folder = try Self.workspace(["overlap.yaml": """
            schedule: {timezone: Europe/Berlin}
            playlists:
              breakfast:
                schedule: {days: mon-fri, from: "06:00", to: "11:00"}
                items: [a.mp4]
              lunch:
                schedule: {days: mon-fri, from: "10:30", to: "15:00"}
                repeat: one
                items: [b.mp4, c.mp4]
              default:
                items: [d.mp4]
            """])
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["a.mp4", "b.mp4", "c.mp4", "d.mp4"] {
            try Data().write(to: folder.appendingPathComponent(name))
        }

        let outcome = try MarqueeProcess.run(["check", "overlap.yaml"], in: folder)

        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.outputLines == [
            "overlap.yaml:6:3: warning: playlist 'lunch' overlaps 'breakfast' (from mon 10:30) with the same priority; 'breakfast' plays, as it is listed first (set 'priority' to choose)",
            "overlap.yaml: OK, 3 playlists (breakfast, lunch, default), 4 items, repeat all/one, times in Europe/Berlin",
        ])
    }
}
