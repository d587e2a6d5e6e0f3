import Foundation
import MarqueeCore
import MarqueePlayer
import Testing
@testable import MarqueeSession

/// A config's schedule followed by a whole session in process: the timetable is read in the
/// config's zone on the session's wall clock, which on the virtual clock is the session's start
/// plus the virtual time (`PlaybackSession.wallClock(for:)`), so windows a few seconds after the
/// start are crossed as fast as the tiny clips decode. What the engine does at each change is
/// QueuePlayerScheduleTests'; the CLI's `--clock fast`, interrupts and display power are
/// ScheduledPlayCLITests'. Here: the config, the session's clock and the intake's reload and load.
@Suite(.serialized) struct ScheduleSessionTests {
    /// `HH:mm:ss` of `date` plus `seconds` on `zone`'s clock.
    static func clock(_ date: Date, plus seconds: Double, zone: String = "UTC") -> String {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: date.addingTimeInterval(seconds))
    }

    /// The next whole second: window edges are whole seconds.
    static func nextWholeSecond() -> Date {
        Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 0.001).rounded(.up))
    }

    static func time(_ event: [String: Any]) -> Double { event["t"] as? Double ?? -1 }

    static func named(_ event: [String: Any], _ name: String) -> Bool { event["event"] as? String == name }

    static func starts(_ events: [[String: Any]]) -> [(url: String, t: Double)] {
        events.filter { named($0, "itemStarted") }.map { (($0["url"] as? String) ?? "", time($0)) }
    }

    /// Two dayparts whose windows meet 2 s after the start: the first plays, loop after loop, until
    /// the item on screen at the edge ends; the change is said when the window opens (on the
    /// virtual clock: at the edge's virtual time), and the second daypart's item follows gapless.
    @Test func theSecondDaypartFollowsTheItemOnScreenAtItsWindowsEdge() throws {
        let folder = try MediaFolder()
        defer { folder.remove() }
        _ = try folder.clip("m.mp4", seconds: 0.6)
        _ = try folder.clip("e.mp4", seconds: 0.6, color: "maroon")
        let base = Self.nextWholeSecond()
        let edge = base.addingTimeInterval(2)
        let socket = folder.url.appendingPathComponent("c.sock").path
        let config = try folder.write("marquee.yaml", """
            schedule: {timezone: UTC}
            playlists:
              morning:
                schedule: {from: "\(Self.clock(base, plus: -60))", to: "\(Self.clock(edge, plus: 0))"}
                items: [m.mp4]
              evening:
                schedule: {from: "\(Self.clock(edge, plus: 0))", to: "\(Self.clock(edge, plus: 3600))"}
                items: [e.mp4]
            control: {socket: \(socket)}

            """)
        let before = Date()
        let session = try SessionUnderTest(plan: PlaybackPlan.fromConfig(path: config), socket: socket, clock: VirtualClock())
        let after = Date()
        defer { session.quit() }
        #expect(session.waitForItem("e.mp4"), "\(session.lines.all)")
        let events = session.written

        let change = try #require(events.first { Self.named($0, "daypartChanged") && $0["daypart"] as? String == "evening" }, "\(events)")
        #expect(change["items"] as? Int == 1 && change["at"] as? String == "itemEnd", "\(change)")
        // The session's wall clock started between `before` and `after`; the edge is that far in.
        let earliest = edge.timeIntervalSince(after), latest = edge.timeIntervalSince(before)
        #expect(Self.time(change) >= earliest - 0.001 && Self.time(change) <= latest + 0.05,
                "changed at \(Self.time(change)) s, the edge is at \(earliest)...\(latest) s")
        let starts = Self.starts(events)
        let onMorning = starts.filter { $0.t <= Self.time(change) }
        #expect(onMorning.count >= 2 && onMorning.allSatisfy { $0.url.hasSuffix("/m.mp4") }, "\(starts)")
        let next = try #require(starts.first { $0.t > Self.time(change) })
        #expect(next.url.hasSuffix("/e.mp4"), "\(starts)")
        // At the end of the loop on screen at the edge, one loop's length after it started.
        let loop = onMorning[onMorning.count - 1].t - onMorning[onMorning.count - 2].t
        #expect(abs(next.t - onMorning[onMorning.count - 1].t - loop) < 0.05, "\(starts)")
        #expect(session.lines.all.contains("info: schedule: daypart evening (1 item in their windows) from once the item playing ends"),
                "\(session.lines.all)")
    }

    /// Times are read on the config's `schedule.timezone`, not the system's: with nothing on at the
    /// start the session waits, and the daypart's item starts when its window opens on that
    /// zone's clock (3 s in, on the virtual clock), not hours away.
    @Test func aWindowOpensAtItsTimeInTheConfigsZoneAndNothingPlaysBefore() throws {
        let folder = try MediaFolder()
        defer { folder.remove() }
        _ = try folder.clip("l.mp4", seconds: 0.4)
        let base = Self.nextWholeSecond()
        let edge = base.addingTimeInterval(3)
        let zone = "Asia/Kolkata"
        let socket = folder.url.appendingPathComponent("c.sock").path
        let config = try folder.write("marquee.yaml", """
            schedule: {timezone: \(zone)}
            playlists:
              lunch:
                schedule: {from: "\(Self.clock(edge, plus: 0, zone: zone))", to: "\(Self.clock(edge, plus: 3600, zone: zone))"}
                items: [l.mp4]
            control: {socket: \(socket)}

            """)
        let before = Date()
        let session = try SessionUnderTest(plan: PlaybackPlan.fromConfig(path: config), socket: socket, clock: VirtualClock())
        let after = Date()
        defer { session.quit() }
        #expect(session.waitForItem("l.mp4"), "\(session.lines.all)")
        let events = session.written

        let first = try #require(Self.starts(events).first)
        #expect(first.url.hasSuffix("/l.mp4"))
        let earliest = edge.timeIntervalSince(after), latest = edge.timeIntervalSince(before)
        #expect(first.t >= earliest - 0.001 && first.t <= latest + 0.1, "started at \(first.t) s, the window opens at \(earliest)...\(latest) s")
        let change = try #require(events.first { Self.named($0, "daypartChanged") && $0["daypart"] as? String == "lunch" }, "\(events)")
        #expect(Self.time(change) >= earliest - 0.001 && Self.time(change) <= first.t, "\(change)")
        #expect(session.lines.all.contains("info: schedule: daypart lunch (1 item in their windows) from once the item playing ends"),
                "\(session.lines.all)")
    }

    /// A reloaded config that brings a schedule goes through the intake like any plan, and the
    /// queue it hands over is what the new timetable says now (lunch), not the config's first or
    /// default playlist; the player follows the new timetable (its next change is lunch's end).
    @Test func aReloadThatBringsASchedulePlaysWhatItSaysNow() throws {
        let folder = try MediaFolder()
        defer { folder.remove() }
        for (name, color) in [("a.mp4", "navy"), ("x.mp4", "olive"), ("b.mp4", "maroon"), ("c.mp4", "teal")] {
            _ = try folder.clip(name, seconds: 0.4, color: color)
        }
        let socket = folder.url.appendingPathComponent("c.sock").path
        let config = try folder.write("marquee.yaml", "playlist:\n  items: [a.mp4]\ncontrol: {socket: \(socket)}\n")
        let session = try SessionUnderTest(plan: PlaybackPlan.fromConfig(path: config), socket: socket, clock: VirtualClock())
        defer { session.quit() }
        #expect(session.waitForItem("a.mp4"))

        // Whole hours around now on the session's wall clock (the virtual one runs ahead of the
        // real one, by seconds to minutes over a test, never by hours).
        let now = Self.nextWholeSecond()
        let lunchEnd = now.addingTimeInterval(4 * 3600)
        try """
            schedule: {timezone: UTC}
            playlists:
              early:
                schedule: {from: "\(Self.clock(now, plus: 5 * 3600))", to: "\(Self.clock(now, plus: 6 * 3600))"}
                items: [x.mp4]
              lunch:
                schedule: {from: "\(Self.clock(now, plus: -3600))", to: "\(Self.clock(lunchEnd, plus: 0))"}
                items: [b.mp4]
              default:
                items: [c.mp4]
            control: {socket: \(socket)}

            """.write(toFile: config, atomically: true, encoding: .utf8)
        #expect(session.waitForLine("plan: \(config) (changed): check, overrides, restart-only, wall, hand-over"), "\(session.lines.all)")
        #expect(session.waitForItem("b.mp4"), "\(session.startedURLs)")
        #expect(!session.startedURLs.contains { $0.hasSuffix("/x.mp4") || $0.hasSuffix("/c.mp4") }, "\(session.startedURLs)")
        let schedule = session.status()?.schedule
        #expect(schedule?.daypart == "lunch", "\(String(describing: schedule))")
        let nextChange = schedule?.nextChange.flatMap { try? Date($0, strategy: .iso8601) }
        #expect(nextChange.map { abs($0.timeIntervalSince(lunchEnd)) < 1 } == true, "\(String(describing: schedule)), lunch ends at \(lunchEnd)")
    }

    /// A client's `load` replaces the queue until the timetable next changes (README, Schedules):
    /// at the next window's edge the timetable's daypart plays again. On the real clock, the edge
    /// 3 s after the start.
    @Test func aLoadPlaysUntilTheTimetableNextChanges() throws {
        let folder = try MediaFolder()
        defer { folder.remove() }
        _ = try folder.clip("m.mp4", seconds: 0.6)
        _ = try folder.clip("e.mp4", seconds: 0.6, color: "maroon")
        _ = try folder.clip("x.mp4", seconds: 0.6, color: "olive")
        let base = Self.nextWholeSecond()
        let edge = base.addingTimeInterval(3)
        let socket = folder.url.appendingPathComponent("c.sock").path
        let config = try folder.write("marquee.yaml", """
            schedule: {timezone: UTC}
            playlists:
              morning:
                schedule: {from: "\(Self.clock(base, plus: -60))", to: "\(Self.clock(edge, plus: 0))"}
                items: [m.mp4]
              evening:
                schedule: {from: "\(Self.clock(edge, plus: 0))", to: "\(Self.clock(edge, plus: 3600))"}
                items: [e.mp4]
            control: {socket: \(socket)}

            """)
        let other = try folder.write("other.yaml", "playlist:\n  items: [x.mp4]\n")
        let session = try SessionUnderTest(plan: PlaybackPlan.fromConfig(path: config), socket: socket)
        defer { session.quit() }
        #expect(session.waitForItem("m.mp4"))
        let loaded = try session.ask(#"{"command":"load","path":"\#(other)"}"#)
        #expect(loaded["ok"] as? Bool == true, "\(loaded)")
        #expect(session.waitForItem("x.mp4"))
        #expect(Date() < edge, "the load came before the edge")

        #expect(session.waitForItem("e.mp4", seconds: 8), "the timetable's next change still plays: \(session.startedURLs)")
        let events = session.written
        let change = events.first { Self.named($0, "daypartChanged") && $0["daypart"] as? String == "evening" }
        #expect(change?["at"] as? String == "itemEnd", "\(String(describing: change))")
        let urls = Self.starts(events).map { URL(fileURLWithPath: $0.url).lastPathComponent }
        let loadedAt = try #require(urls.firstIndex(of: "x.mp4"))
        #expect(urls.lastIndex(of: "m.mp4").map { $0 < loadedAt } == true && urls.firstIndex(of: "e.mp4").map { $0 > loadedAt } == true, "\(urls)")
        #expect(session.status()?.schedule?.daypart == "evening")
    }
}
