import Foundation
import Testing

/// `marquee play` on a config with dayparts and display power windows a few seconds ahead, on the
/// fast clock (its wall clock is the start time plus the virtual time, so the windows are crossed
/// as fast as decoding goes): the config reaches the engine, and the events say what the
/// timetable did and when.
@Suite(.serialized) struct ScheduledPlayCLITests {
    /// `HH:MM:SS` in UTC, `seconds` after `base`.
    static func clock(_ base: Date, plus seconds: Int) -> String {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: base.addingTimeInterval(TimeInterval(seconds)))
    }

    static func time(_ event: [String: Any]) -> Double { event["t"] as? Double ?? -1 }

    @Test func daypartsAndDisplayPowerFollowTheTimetable() throws {
        let folder = try PlayCommandTests.workspace.get()
        // Whole seconds, so the edges are 3, 6, 8 and 10 s after `base` (the start is a little after it).
        let base = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.up))
        let config = """
            schedule: {timezone: UTC}
            display:
              power:
                windows: [{off: "\(Self.clock(base, plus: 8))", on: "\(Self.clock(base, plus: 10))"}]
            playlists:
              promo:
                interrupt: true
                schedule: {from: "\(Self.clock(base, plus: 3))", to: "\(Self.clock(base, plus: 6))"}
                items: [b.webm]
              default:
                items: [a.mp4]
            """
        let name = "scheduled-\(UUID().uuidString).yaml"
        try Data(config.utf8).write(to: folder.appendingPathComponent(name))
        defer { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        let run = try PlayerRun(arguments: ["play", name, "--output", "headless:160x90", "--audio", "null",
                                            "--clock", "fast", "--control", "none"], in: folder)
        #expect(run.waitForEvents(seconds: 60) { events in
            events.contains { $0["event"] as? String == "displayPowerChanged" && $0["display"] as? String == "on" }
        })
        #expect(run.terminate() == 0)
        let events = run.events()
        let log = events.filter { $0["event"] as? String != "frame" }
        func first(_ match: ([String: Any]) -> Bool) -> [String: Any]? { log.first(where: match) }

        // Promo cuts in at its window (interrupt): its first frame follows the change at once.
        let promo = first { $0["event"] as? String == "daypartChanged" && $0["daypart"] as? String == "promo" }
        #expect(promo?["at"] as? String == "now", "\(log)")
        let promoStart = first { $0["event"] as? String == "itemStarted" && ($0["url"] as? String)?.hasSuffix("b.webm") == true }
        #expect(promo != nil && promoStart != nil && Self.time(promoStart!) - Self.time(promo!) < 0.1, "\(String(describing: promo)) \(String(describing: promoStart))")
        // The edge is 3 s after `base`, which is up to 1 s after the test's now; less the time to start.
        #expect(promo.map { (2...4.05).contains(Self.time($0)) } == true, "\(String(describing: promo))")

        // Back to default at the end of the promo clip playing then (1 s long), not at once.
        let back = first { $0["event"] as? String == "daypartChanged" && $0["daypart"] as? String == "default" }
        #expect(back?["at"] as? String == "itemEnd")
        let backStart = log.first { event in
            event["event"] as? String == "itemStarted" && (event["url"] as? String)?.hasSuffix("a.mp4") == true
                && Self.time(event) > (back.map(Self.time) ?? .infinity)
        }
        #expect(back != nil && backStart != nil && Self.time(backStart!) - Self.time(back!) <= 1.05,
                "\(String(describing: back)) \(String(describing: backStart))")

        // Off for the 2 s of its window, as commands from the schedule; no frame is shown meanwhile.
        let commands = log.filter { $0["event"] as? String == "command" && $0["source"] as? String == "schedule" }
        #expect(commands.compactMap { $0["command"] as? String } == ["displayOff", "displayOn"], "\(commands)")
        if commands.count == 2 {
            let off = Self.time(commands[0])
            let on = Self.time(commands[1])
            #expect(abs(on - off - 2) < 0.05, "off at \(off), on at \(on)")
            let dark = events.filter { $0["event"] as? String == "frame" && Self.time($0) > off + 0.001 && Self.time($0) < on }
            #expect(dark.isEmpty, "\(dark.count) frames while off")
        }
        #expect(run.standardError().contains("info: command displayOff from schedule"), "\(run.standardError())")
        #expect(run.standardError().contains("info: schedule: daypart promo (1 item in their windows) from now"))
    }

    /// `status` names the daypart playing and the timetable's next change; `marquee ctl status`
    /// shows them in a row. Real time: the lunch window closes an hour from now.
    @Test func theStatusSaysWhichDaypartPlaysAndWhenTheNextChangeIs() throws {
        let folder = try PlayCommandTests.workspace.get()
        let now = Date()
        let config = """
            schedule: {timezone: UTC}
            playlists:
              lunch:
                schedule: {from: "\(Self.clock(now, plus: -60))", to: "\(Self.clock(now, plus: 3600))"}
                items: [a.mp4]
            """
        let name = "status-\(UUID().uuidString).yaml"
        try Data(config.utf8).write(to: folder.appendingPathComponent(name))
        defer { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        let player = try ControlledPlayer(arguments: ["play", name, "--output", "headless:160x90", "--audio", "null",
                                                      "--clock", "realtime"], in: folder)
        #expect(player.run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "itemStarted" } })
        let schedule = try player.status()["schedule"] as? [String: Any]
        #expect(schedule?["daypart"] as? String == "lunch", "\(String(describing: schedule))")
        let next = (schedule?["nextChange"] as? String).flatMap { try? Date($0, strategy: .iso8601) }
        // The window's end, to the second (its `to` is whole seconds).
        #expect(next.map { abs($0.timeIntervalSince(now) - 3600) < 1.5 } == true, "\(String(describing: schedule))")
        #expect(player.run.terminate() == 0)
    }
}
