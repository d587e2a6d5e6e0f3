import Foundation
import MarqueeConfig
import Testing

/// Each broken schedule yields exactly one error, at the key or value at fault.
@Suite struct ScheduleDiagnosticTests {
    static let cases: [BrokenConfigCase] = [
        BrokenConfigCase("unknown time zone suggests the closest", """
            schedule:
              timezone: Europe/Berln
            playlist:
              items: [a.mp4]
            """, line: 2, column: 13, message: "unknown time zone 'Europe/Berln'; did you mean 'Europe/Berlin'?"),
        BrokenConfigCase("time zone that is nothing like one", """
            schedule:
              timezone: Somewhere/Nowhere-At-All
            playlist:
              items: [a.mp4]
            """, line: 2, column: 13, message: "unknown time zone 'Somewhere/Nowhere-At-All' (expected an IANA name such as Europe/Berlin or America/New_York)"),
        BrokenConfigCase("malformed time of day", """
            playlist:
              schedule: {from: "7:5", to: "11:00"}
              items: [a.mp4]
            """, line: 2, column: 20, message: "bad time of day '7:5' (expected HH:MM or HH:MM:SS, from 00:00 to 24:00)"),
        BrokenConfigCase("hour past 24", """
            playlist:
              items:
                - url: a.mp4
                  schedule:
                    from: "08:00"
                    to: "25:00"
            """, line: 6, column: 13, message: "bad time of day '25:00'"),
        BrokenConfigCase("a window starting at 24:00", """
            playlist:
              schedule: {from: "24:00", to: "06:00"}
              items: [a.mp4]
            """, line: 2, column: 20, message: "a window cannot start at 24:00 (start at 00:00 of the next day)"),
        BrokenConfigCase("from equal to to", """
            playlist:
              schedule: {from: "07:00", to: "07:00"}
              items: [a.mp4]
            """, line: 2, column: 33, message: "'to' is the same time as 'from' (07:00): the window would be empty; leave both out for the whole day"),
        BrokenConfigCase("to at midnight without a from", """
            playlist:
              schedule: {to: "00:00"}
              items: [a.mp4]
            """, line: 2, column: 18, message: "'to' is the same time as 'from' (00:00)"),
        BrokenConfigCase("misspelt day suggests the right one", """
            playlist:
              schedule: {days: [mon, tues], from: "07:00", to: "09:00"}
              items: [a.mp4]
            """, line: 2, column: 26, message: "unknown day 'tues'; did you mean 'tue'? (expected mon, tue, wed, thu, fri, sat or sun, or a range such as mon-fri)"),
        BrokenConfigCase("bad end of a day range", """
            playlist:
              schedule: {days: mon-fry}
              items: [a.mp4]
            """, line: 2, column: 20, message: "unknown day 'fry'; did you mean 'fri'?"),
        BrokenConfigCase("empty list of days", """
            playlist:
              schedule: {days: []}
              items: [a.mp4]
            """, line: 2, column: 20, message: "expected at least one day"),
        BrokenConfigCase("malformed date", """
            playlist:
              schedule: {fromDate: 2026-1-5}
              items: [a.mp4]
            """, line: 2, column: 24, message: "bad date '2026-1-5' (expected YYYY-MM-DD, e.g. 2026-12-24)"),
        BrokenConfigCase("a day that is not on the calendar", """
            playlist:
              schedule: {dates: [2028-02-29, 2027-02-29]}
              items: [a.mp4]
            """, line: 2, column: 34, message: "date '2027-02-29' does not exist (that month has 28 days)"),
        BrokenConfigCase("fromDate after untilDate", """
            playlists:
              promo:
                schedule:
                  fromDate: 2026-12-24
                  untilDate: 2026-12-01
                items: [a.mp4]
            """, line: 5, column: 18, message: "untilDate (2026-12-01) is before fromDate (2026-12-24)"),
        BrokenConfigCase("dates together with a date range", """
            playlist:
              schedule:
                dates: [2026-12-24]
                untilDate: 2026-12-31
              items: [a.mp4]
            """, line: 3, column: 5, message: "give either 'dates' or 'fromDate'/'untilDate', not both"),
        BrokenConfigCase("a window whose dates never fall on its days", """
            playlist:
              schedule: {days: mon, dates: [2026-12-24, 2026-12-25]}
              items: [a.mp4]
            """, line: 2, column: 13, message: "this window never happens: none of its dates falls on mon"),
        BrokenConfigCase("a short date range without the window's day", """
            playlist:
              schedule: {days: sat-sun, fromDate: 2026-12-21, untilDate: 2026-12-25}
              items: [a.mp4]
            """, line: 2, column: 13, message: "this window never happens: none of its dates falls on sat,sun"),
        BrokenConfigCase("misspelt window key", """
            playlist:
              schedule: {form: "07:00", to: "09:00"}
              items: [a.mp4]
            """, line: 2, column: 14, message: "unknown key 'form' in schedule window; did you mean 'from'?"),
        BrokenConfigCase("schedule that is not a window", """
            playlist:
              schedule: weekdays
              items: [a.mp4]
            """, line: 2, column: 13, message: "expected a schedule window (e.g. {days: mon-fri, from: \"07:00\", to: \"11:00\"}) or a list of them, found 'weekdays'"),
        BrokenConfigCase("empty list of windows", """
            playlist:
              schedule: []
              items: [a.mp4]
            """, line: 2, column: 13, message: "expected at least one schedule window"),
        BrokenConfigCase("priority on a single playlist", """
            playlist:
              priority: 2
              items: [a.mp4]
            """, line: 2, column: 3, message: "unknown key 'priority' in playlist"),
        BrokenConfigCase("priority that is not a number", """
            playlists:
              promo:
                priority: high
                items: [a.mp4]
            """, line: 3, column: 15, message: "expected a whole number, found 'high'"),
        BrokenConfigCase("interrupt that is not a yes or no", """
            playlists:
              promo:
                interrupt: now
                items: [a.mp4]
            """, line: 3, column: 16, message: "expected true or false, found 'now'"),
        BrokenConfigCase("a daypart without items", """
            playlists:
              promo:
                schedule: {from: "07:00", to: "09:00"}
            """, line: 2, column: 3, message: "playlist 'promo' is missing 'items' (the list of media to play)"),
        BrokenConfigCase("both playlist and playlists", """
            playlist:
              items: [a.mp4]
            playlists:
              promo:
                items: [b.mp4]
            """, line: 3, column: 1, message: "give either 'playlist' (one playlist) or 'playlists' (named dayparts), not both"),
        BrokenConfigCase("playlists that name nothing", """
            playlists: {}
            """, line: 1, column: 12, message: "'playlists' names no playlist"),
        BrokenConfigCase("a listed playlist without a name", fileName: "config.json", """
            {"playlists": [{"items": ["a.mp4"]}]}
            """, line: 1, column: 16, message: "this playlist has no 'name'"),
        BrokenConfigCase("two listed playlists with one name", fileName: "config.json", """
            {"playlists": [{"name": "a", "items": ["a.mp4"]}, {"name": "a", "items": ["b.mp4"]}]}
            """, line: 1, column: 60, message: "a second playlist named 'a'"),
        BrokenConfigCase("power window without on", """
            playlist:
              items: [a.mp4]
            display:
              power:
                windows: [{off: "22:00"}]
            """, line: 5, column: 15, message: "power window is missing 'on' (the time the screen goes on)"),
        BrokenConfigCase("power window with from instead of off", """
            playlist:
              items: [a.mp4]
            display:
              power:
                - {from: "22:00", off: "22:00", on: "06:00"}
            """, line: 5, column: 8, message: "unknown key 'from' in power window"),
        BrokenConfigCase("power window whose on equals off", """
            playlist:
              items: [a.mp4]
            display:
              power:
                - {off: "22:00", on: "22:00"}
            """, line: 5, column: 26, message: "'on' is the same time as 'off' (22:00): the window would be empty"),
        BrokenConfigCase("offWhenIdle that is not a yes or no", """
            playlist:
              items: [a.mp4]
            display:
              power:
                offWhenIdle: sometimes
            """, line: 5, column: 18, message: "expected true or false, found 'sometimes'"),
    ]

    @Test(arguments: cases)
    func reportsTheProblemWhereItIs(_ broken: BrokenConfigCase) throws {
        try broken.expectReportedWhereItIs()
    }
}
