import Foundation
import MarqueeConfig
import MarqueeCore
import Testing

/// `playlists:` (dayparts), `schedule:` windows, `schedule.timezone` and `display.power`.
@Suite struct ScheduleConfigTests {
    static let restaurant = """
        schedule:
          timezone: Europe/Berlin
        playlists:
          breakfast:
            schedule: {days: mon-fri, from: 06:00, to: 11:00}
            items: [menu.png]
          lunch:
            priority: 2
            interrupt: true
            schedule:
              - {days: [mon, tue, wed, thu, fri], from: "11:00", to: "15:00"}
              - {days: sat-sun, from: "12:00", to: "16:00"}
            items:
              - lunch.mp4
              - url: soup.png
                schedule: {from: "12:00", to: "13:00", fromDate: 2026-11-01, untilDate: "2027-02-28"}
          default:
            repeat: shuffle
            items: [loop.mp4]
        display:
          power:
            offWhenIdle: true
            windows:
              - {off: "22:00", on: "07:00", days: mon-fri}
              - {off: "23:00", on: "09:00", dates: [2026-12-24, 2026-12-31]}
        """

    static func load(_ text: String, name: String = "config.yaml") throws -> (ConfigurationLoadResult, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let path = try folder.write(name, text)
        return (ConfigurationLoader.load(path: path, checkingMediaFiles: false), folder)
    }

    static func time(_ text: String) -> TimeOfDay { TimeOfDay(parsing: text)! }
    static func date(_ text: String) -> CalendarDate { CalendarDate(parsing: text)! }

    @Test func daypartsKeepTheirOrderScheduleAndPriority() throws {
        let (result, folder) = try Self.load(Self.restaurant)
        defer { folder.remove() }

        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let configuration = try #require(result.configuration)
        #expect(configuration.dayparts.map(\.name) == ["breakfast", "lunch", "default"])
        #expect(configuration.dayparts.map(\.priority) == [0, 2, 0])
        #expect(configuration.dayparts.map(\.interrupt) == [false, true, false])
        #expect(configuration.schedule.timeZoneIdentifier == "Europe/Berlin")
        // Unquoted 06:00 and 11:00 (YAML 1.1 would make 11:00 the number 660) keep their text.
        #expect(configuration.dayparts[0].playlist.schedule == Schedule([
            ScheduleWindow(days: WeekdaySet([.mon, .tue, .wed, .thu, .fri]), from: Self.time("06:00"), to: Self.time("11:00")),
        ]))
        #expect(configuration.dayparts[1].playlist.schedule?.windows.map(\.days) == [
            WeekdaySet([.mon, .tue, .wed, .thu, .fri]), WeekdaySet([.sat, .sun]),
        ])
        #expect(configuration.dayparts[1].playlist.items.map(\.schedule) == [nil, Schedule([
            ScheduleWindow(from: Self.time("12:00"), to: Self.time("13:00"),
                           dates: .between(from: Self.date("2026-11-01"), until: Self.date("2027-02-28"))),
        ])])
        #expect(configuration.display.power == DisplayPowerConfiguration(offWindows: [
            ScheduleWindow(days: WeekdaySet([.mon, .tue, .wed, .thu, .fri]), from: Self.time("22:00"), to: Self.time("07:00")),
            ScheduleWindow(from: Self.time("23:00"), to: Self.time("09:00"),
                           dates: .dates([Self.date("2026-12-24"), Self.date("2026-12-31")])),
        ], offWhenIdle: true))
        // Until the engine follows schedules, `play` takes the default playlist.
        #expect(configuration.playlist.repeat == .shuffle)
        #expect(configuration.isScheduled)
    }

    @Test func theTimetableComesFromTheConfig() throws {
        let (result, folder) = try Self.load(Self.restaurant)
        defer { folder.remove() }
        let timetable = try #require(result.configuration).timetable(systemTimeZone: TimeZone(identifier: "Asia/Tokyo")!)

        #expect(timetable.clock.timeZone.identifier == "Europe/Berlin")
        #expect(timetable.dayparts.map(\.name) == ["breakfast", "lunch", "default"])
        #expect(timetable.dayparts[1].itemSchedules.count == 2)
        #expect(timetable.displayPower.offWhenIdle)
        // Saturday 2026-12-12 at 12:30 in Berlin: lunch's weekend window, soup in its dates and hours.
        let state = timetable.state(at: timetable.clock.instant(of: LocalDateTime(parsingISO8601: "2026-12-12T12:30")!))
        #expect(state == ScheduleState(daypart: 1, items: [0, 1], displayOn: true))
    }

    @Test func withoutATimezoneTheSystemZoneIsUsed() throws {
        let (result, folder) = try Self.load("playlist:\n  items: [a.mp4]\n  schedule: {from: \"08:00\", to: \"20:00\"}\n")
        defer { folder.remove() }
        let configuration = try #require(result.configuration)

        #expect(configuration.hasSinglePlaylist)
        #expect(configuration.schedule.timeZoneIdentifier == nil)
        #expect(configuration.timetable(systemTimeZone: TimeZone(identifier: "America/New_York")!).clock.timeZone.identifier == "America/New_York")
        #expect(configuration.dayparts.map(\.name) == ["playlist"])
        #expect(configuration.playlist.schedule?.windows == [ScheduleWindow(from: Self.time("08:00"), to: Self.time("20:00"))])
    }

    @Test func aPlainPlaylistIsUnchanged() throws {
        let (result, folder) = try Self.load("playlist:\n  items: [a.mp4]\n")
        defer { folder.remove() }
        let configuration = try #require(result.configuration)

        #expect(configuration.hasSinglePlaylist)
        #expect(!configuration.isScheduled)
        #expect(configuration.playlist.schedule == nil)
        #expect(configuration.display.power == DisplayPowerConfiguration())
    }

    @Test func playlistsMayBeAListOfNamedPlaylists() throws {
        let (result, folder) = try Self.load("""
            {"playlists": [
              {"name": "promo", "priority": 1, "schedule": {"fromDate": "2026-12-01"}, "items": ["promo.mp4"]},
              {"name": "default", "items": ["loop.mp4"]}
            ]}
            """, name: "config.json")
        defer { folder.remove() }

        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let configuration = try #require(result.configuration)
        #expect(configuration.dayparts.map(\.name) == ["promo", "default"])
        #expect(configuration.dayparts[0].playlist.schedule?.windows.first?.dates == .between(from: Self.date("2026-12-01"), until: nil))
    }

    @Test func powerMayBeJustAListOfWindows() throws {
        let (result, folder) = try Self.load("""
            playlist:
              items: [a.mp4]
            display:
              power:
                - {off: "01:00", on: "05:30", days: "sun"}
            """)
        defer { folder.remove() }

        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(try #require(result.configuration).display.power.offWindows == [
            ScheduleWindow(days: WeekdaySet([.sun]), from: Self.time("01:00"), to: Self.time("05:30")),
        ])
    }

    @Test func daypartConfigsEncodeToAConfigThatReadsBack() throws {
        let (result, folder) = try Self.load(Self.restaurant)
        defer { folder.remove() }
        let configuration = try #require(result.configuration)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]

        let data = try encoder.encode(configuration)
        let json = try #require(String(data: data, encoding: .utf8))

        #expect(json.contains(#""schedule":[{"days":"mon-fri","from":"06:00","to":"11:00"}]"#), "\(json)")
        #expect(json.contains(#""name":"lunch""#))
        #expect(json.contains(#""schedule":{"timezone":"Europe/Berlin"}"#))
        #expect(json.contains(#"{"dates":["2026-12-24","2026-12-31"],"off":"23:00","on":"09:00"}"#), "\(json)")
        #expect(try JSONDecoder().decode(MarqueeConfiguration.self, from: data) == configuration)
    }

    // MARK: - Warnings

    @Test func overlappingDaypartsOfEqualPriorityAreAWarningAtTheOneThatLoses() throws {
        let (result, folder) = try Self.load("""
            playlists:
              breakfast:
                schedule: {days: mon-fri, from: "06:00", to: "11:00"}
                items: [a.mp4]
              brunch:
                schedule: {days: [fri, sat, sun], from: "10:00", to: "14:00"}
                items: [b.mp4]
              late:
                priority: 1
                schedule: {from: "10:30", to: "23:00"}
                items: [c.mp4]
              default:
                items: [d.mp4]
            """)
        defer { folder.remove() }

        #expect(result.configuration != nil)
        #expect(result.diagnostics.map(\.description) == [
            "\(folder.path("config.yaml")):5:3: warning: playlist 'brunch' overlaps 'breakfast' (from fri 10:00) with the same priority; 'breakfast' plays, as it is listed first (set 'priority' to choose)",
        ])
    }

    @Test func distinctPrioritiesAndTheDefaultDoNotWarn() throws {
        let (result, folder) = try Self.load("""
            playlists:
              morning:
                schedule: {from: "06:00", to: "12:00"}
                items: [a.mp4]
              promo:
                priority: 5
                schedule: {fromDate: 2026-12-01, untilDate: 2026-12-24}
                items: [b.mp4]
              default:
                items: [c.mp4]
            """)
        defer { folder.remove() }

        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    }

    @Test func priorityOnTheDefaultIsAWarning() throws {
        let (result, folder) = try Self.load("""
            playlists:
              default:
                priority: 3
                items: [c.mp4]
            """)
        defer { folder.remove() }

        #expect(result.configuration != nil)
        #expect(result.diagnostics.map { "\($0.line):\($0.column): \($0.severity): \($0.message)" } == [
            "3:5: warning: 'priority' does nothing on the default playlist: it plays only when no other does",
        ])
    }
}
