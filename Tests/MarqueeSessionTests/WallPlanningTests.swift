import Foundation
import MarqueeConfig
import MarqueeCore
import MarqueeMedia
import MarqueePlayer
import Testing
@testable import MarqueeSession

/// Frame-locked playback (`sync:`) planned in process: the session works the wall plan out from
/// each item's trimmed length with the real WallSyncPlanner over FFmpeg, and every later plan from
/// the config file passes the intake's wall step. The player runs on the wall clock
/// (WallClockTime), so each shown frame's `wall` stamp says where on the wall it went up. What is
/// about several processes (two players agreeing, SIGSTOP, a lagging clock, the captured sound)
/// stays with WallSyncCLITests; the config's refusals with SyncDiagnosticTests.
@Suite(.serialized) struct WallPlanningTests {
    /// `a.mp4` to 0.8 s, then `b.mp4` from 0.2 s to 0.9 s: a cycle of 1.5 s.
    static func config(epoch: String, socket: String, items: String = Self.items) -> String {
        "sync:\n  epoch: \"\(epoch)\"\nplaylist:\n  items:\n\(items)control:\n  socket: \(socket)\n"
    }

    static let items = """
            - url: a.mp4
              end: 0.8
            - url: b.mp4
              start: 0.2
              end: 0.9

        """

    /// 2026-01-01T00:00:00Z in Unix seconds.
    static let newYear = 1_767_225_600.0

    static func layout(epoch: Double) -> WallLayout {
        WallLayout(epoch: epoch, lengths: [0.8, 0.7], mediaStarts: [0, 0.2])
    }

    static func clips(in folder: MediaFolder) throws {
        _ = try folder.clip("a.mp4", seconds: 1)
        _ = try folder.clip("b.mp4", seconds: 1, color: "maroon")
    }

    static func session(_ config: String, socket: String) throws -> SessionUnderTest {
        try SessionUnderTest(plan: PlaybackPlan.fromConfig(path: config), socket: socket, clock: WallClockTime(), traceFrames: true)
    }

    /// The plan is the items' trimmed lengths from the epoch as written (to the millisecond): the
    /// join's first frame goes up at the instant the wall says, and every frame after it at its
    /// slot, both items in turn.
    @Test func aSyncConfigIsPlannedFromItsTrimsAndLaidOnTheWallFromItsEpoch() throws {
        let folder = try MediaFolder()
        defer { folder.remove() }
        try Self.clips(in: folder)
        let socket = folder.url.appendingPathComponent("c.sock").path
        let config = try folder.write("wall.yaml", Self.config(epoch: "2026-01-01T00:00:00.700Z", socket: socket))
        let session = try Self.session(config, socket: socket)
        defer { session.quit() }
        let layout = Self.layout(epoch: Self.newYear + 0.7)
        #expect(session.waitForEvents { (WallFrames(events: $0).segments.first?.frames.count ?? 0) > 45 }, "\(session.lines.all)")
        let trace = WallFrames(events: session.written)

        #expect(session.lines.all.contains("info: sync: locked to the wall clock from 2026-01-01T00:00:00.700Z: a cycle of 1.5 s over 2 items"),
                "\(session.lines.all)")
        // These backends read no kernel clock: said once, as on a device without adjtimex.
        #expect(session.lines.all.contains { $0.hasPrefix("warning: sync: cannot read the kernel clock's state") })
        let segment = try #require(trace.segments.first)
        #expect(segment.join["reason"] as? String == "start")
        let joinWall = try #require(layout.wallTime(ofJoin: segment.join))
        let joinFrame = try #require(segment.joinFrame)
        #expect(abs(joinFrame.wall - joinWall) < 0.02, "the join's frame went up \((joinFrame.wall - joinWall) * 1000) ms off the join's instant")
        let offsets = segment.frames.map(layout.offset)
        #expect(median(offsets.map(abs)) < 0.005, "\(offsets.map { Int($0 * 1000) })")
        #expect(Double(offsets.filter { abs($0) < 0.02 }.count) >= 0.9 * Double(offsets.count), "\(offsets.map { Int($0 * 1000) })")
        // Both items, the second from its trimmed start.
        #expect(Set(segment.frames.map(\.item)) == [0, 1])
        #expect(segment.frames.filter { $0.item == 1 }.allSatisfy { $0.pts >= 0.19 && $0.pts < 0.9 })
        #expect(segment.frames.filter { $0.item == 0 }.allSatisfy { $0.pts < 0.8 })
        #expect(session.status()?.sync?.epoch == "2026-01-01T00:00:00.700Z")
    }

    /// A reloaded file goes through the intake's wall step with its own `sync:`: a moved epoch is
    /// planned anew and joined at once (reason `reload`), every frame after the join on the new
    /// epoch's slots, loop after loop. One item of 1.2 s, so the join always lands in the item on
    /// screen: the wall used to stop at that item's end (the reload's fresh cursor was never moved
    /// to the item the join seeked in).
    @Test func aReloadThatMovesTheEpochIsPlannedAndJoinedOnTheNewEpoch() throws {
        let folder = try MediaFolder()
        defer { folder.remove() }
        _ = try folder.clip("a.mp4", seconds: 2)
        let item = "    - url: a.mp4\n      end: 1.2\n"
        let socket = folder.url.appendingPathComponent("c.sock").path
        let config = try folder.write("wall.yaml", Self.config(epoch: "2026-01-01T00:00:00Z", socket: socket, items: item))
        let session = try Self.session(config, socket: socket)
        defer { session.quit() }
        #expect(session.waitForEvents { (WallFrames(events: $0).segments.first?.frames.count ?? 0) > 20 }, "\(session.lines.all)")

        try Self.config(epoch: "2026-01-01T00:00:00.500Z", socket: socket, items: item).write(toFile: config, atomically: true, encoding: .utf8)
        #expect(session.waitForLine("plan: \(config) (changed): check, overrides, restart-only, wall, hand-over"), "\(session.lines.all)")
        // Two cycles and more after the join: past the end of the item it joined in.
        #expect(session.waitForEvents(seconds: 10) { events in
            let segments = WallFrames(events: events).segments
            return segments.count >= 2 && segments[1].frames.count > 60
        }, "\(session.lines.all)")
        #expect(session.status()?.sync?.epoch == "2026-01-01T00:00:00.500Z", "status tells the wall playing now")
        let segments = WallFrames(events: session.written).segments
        #expect(segments.count == 2, "one join at start, one for the reload: \(segments.map(\.join))")
        #expect(segments.count >= 2 && segments[1].join["reason"] as? String == "reload")
        #expect(!session.written.contains { $0["event"] as? String == "playbackStateChanged" && $0["state"] as? String == "stopped" })

        let old = WallLayout(epoch: Self.newYear, lengths: [1.2], mediaStarts: [0])
        let new = WallLayout(epoch: Self.newYear + 0.5, lengths: [1.2], mediaStarts: [0])
        #expect(median(segments[0].frames.map(old.offset).map(abs)) < 0.005)
        let after = segments.count >= 2 ? segments[1].frames : []
        #expect(median(after.map(new.offset).map(abs)) < 0.005, "\(after.map { Int(new.offset($0) * 1000) })")
        // The two epochs are told apart: the frames after the reload are far off the old one's slots.
        #expect(median(after.map(old.offset).map(abs)) > 0.1)
        if segments.count >= 2, let joinWall = new.wallTime(ofJoin: segments[1].join), let joinFrame = segments[1].joinFrame {
            #expect(abs(joinFrame.wall - joinWall) < 0.02, "\((joinFrame.wall - joinWall) * 1000) ms")
        }
    }

    /// The wall step refuses a reloaded playlist with any item whose length cannot be known (each
    /// one named: a start past its media's end, a file FFmpeg cannot open), and the wall plays on
    /// with the plan it had: no new join, the same slots.
    @Test func aReloadWithItemsOfNoKnownLengthIsRefusedAndTheWallPlaysOn() throws {
        let folder = try MediaFolder()
        defer { folder.remove() }
        try Self.clips(in: folder)
        let junk = try folder.write("junk.mp4", "not a video\n")
        let socket = folder.url.appendingPathComponent("c.sock").path
        let config = try folder.write("wall.yaml", Self.config(epoch: "2026-01-01T00:00:00Z", socket: socket))
        let session = try Self.session(config, socket: socket)
        defer { session.quit() }
        #expect(session.waitForEvents { (WallFrames(events: $0).segments.first?.frames.count ?? 0) > 10 }, "\(session.lines.all)")

        try Self.config(epoch: "2026-01-01T00:00:00Z", socket: socket, items: """
                - url: a.mp4
                  end: 0.8
                - url: b.mp4
                  start: 5
                - junk.mp4

            """).write(toFile: config, atomically: true, encoding: .utf8)
        #expect(session.waitForLine("rejected; the previous config keeps playing"), "\(session.lines.all)")
        let shownBefore = WallFrames(events: session.written).segments.first?.frames.count ?? 0
        // A cycle and more on the old plan.
        #expect(session.waitForEvents { (WallFrames(events: $0).segments.first?.frames.count ?? 0) > shownBefore + 45 })

        let source = "\(config) (changed)"
        let errors = session.lines.all.filter { $0.hasPrefix("error: reload: \(source): sync: item ") }
        #expect(errors.count == 2, "\(session.lines.all)")
        #expect(errors.first?.hasPrefix("error: reload: \(source): sync: item 2 (\(folder.url.path)/b.mp4) cannot be timed: start (") == true, "\(errors)")
        #expect(errors.first?.contains("is at or past the end of the media") == true, "\(errors)")
        #expect(errors.last?.hasPrefix("error: reload: \(source): sync: item 3 (\(junk)) cannot be opened to learn its length") == true, "\(errors)")
        #expect(session.lines.all.contains("error: reload: \(source) rejected; the previous config keeps playing"))
        #expect(!session.lines.all.contains { $0.contains("plan: \(source):") }, "the refused plan never reached the hand-over")

        let segments = WallFrames(events: session.written).segments
        #expect(segments.count == 1, "no join after the refusal: \(segments.map(\.join))")
        let frames = segments[0].frames
        let layout = Self.layout(epoch: Self.newYear)
        #expect(median(frames.map(layout.offset).map(abs)) < 0.005)
        #expect(Set(frames.dropFirst(shownBefore).map(\.item)) == [0, 1], "the old playlist plays on")
    }

    /// A player started without `sync:` runs on its own clock; a reloaded config that adds it
    /// needs a restart (said once, by key), and its playlist plays unlocked: no join, and a
    /// command that would leave a wall is obeyed.
    @Test func syncAddedByAReloadWaitsForARestartAndThePlaylistPlaysUnlocked() throws {
        let folder = try MediaFolder()
        defer { folder.remove() }
        try Self.clips(in: folder)
        let socket = folder.url.appendingPathComponent("c.sock").path
        let config = try folder.write("marquee.yaml", "playlist:\n  items:\n    - url: a.mp4\n      end: 0.4\ncontrol:\n  socket: \(socket)\n")
        let session = try SessionUnderTest(plan: PlaybackPlan.fromConfig(path: config), socket: socket)
        defer { session.quit() }
        #expect(session.waitForItem("a.mp4"))

        try Self.config(epoch: "2026-01-01T00:00:00Z", socket: socket).write(toFile: config, atomically: true, encoding: .utf8)
        #expect(session.waitForLine("warning: reload: not applied until marquee restarts: sync"), "\(session.lines.all)")
        #expect(session.waitForItem("b.mp4"), "the reloaded playlist plays")
        #expect(session.waitForStatus { $0.itemCount == 2 })
        let next = try session.ask(#"{"command":"next"}"#)
        #expect(next["ok"] as? Bool == true, "not locked: \(next)")
        #expect(!session.written.contains { $0["event"] as? String == "wallSyncJoined" })
        #expect(session.status()?.sync == nil)
        #expect(session.lines.all.filter { $0.contains("restarts: sync") }.count == 1)
    }

    /// A reload that takes `sync:` away unlocks the player: `status` no longer reports a wall and
    /// a client's `load`, refused while locked, is taken.
    @Test func syncRemovedByAReloadUnlocksStatusAndLoads() throws {
        let folder = try MediaFolder()
        defer { folder.remove() }
        try Self.clips(in: folder)
        let socket = folder.url.appendingPathComponent("c.sock").path
        let config = try folder.write("wall.yaml", Self.config(epoch: "2026-01-01T00:00:00Z", socket: socket))
        let other = try folder.write("other.yaml", "playlist:\n  items: [b.mp4]\n")
        let session = try Self.session(config, socket: socket)
        defer { session.quit() }
        #expect(session.waitForEvents { (WallFrames(events: $0).segments.first?.frames.count ?? 0) > 10 }, "\(session.lines.all)")
        #expect(session.status()?.sync?.epoch == "2026-01-01T00:00:00Z")
        let locked = try session.ask(#"{"command":"load","path":"\#(other)"}"#)
        #expect(locked["ok"] as? Bool == false && (locked["error"] as? String)?.contains("locked to the wall clock") == true, "\(locked)")

        try "playlist:\n  items: [a.mp4, b.mp4]\ncontrol:\n  socket: \(socket)\n".write(toFile: config, atomically: true, encoding: .utf8)
        #expect(session.waitForLine("plan: \(config) (changed): check, overrides, restart-only, wall, hand-over"), "\(session.lines.all)")
        #expect(session.waitForStatus { $0.sync == nil }, "no wall in status once unlocked")
        let loaded = try session.ask(#"{"command":"load","path":"\#(other)"}"#)
        #expect(loaded["ok"] as? Bool == true, "\(loaded)")
    }

    /// The planner itself, over FFmpeg: each item's length is its trim against the media's own
    /// duration, and a playlist that cannot be counted names every item that has none, in order.
    @Test func thePlannerCountsTrimsAgainstTheMediaAndNamesEveryItemWithoutALength() throws {
        let folder = try MediaFolder()
        defer { folder.remove() }
        try Self.clips(in: folder)
        let junk = try folder.write("junk.mp4", "not a video\n")
        let good = try PlaybackPlan.fromConfig(path: folder.write("good.yaml", """
            sync: {epoch: 1767225600.25}
            playlist:
              items:
                - {url: a.mp4, end: 0.8}
                - {url: b.mp4, start: 0.2, end: 0.9}
                - {url: b.mp4, duration: 0.3}
                - {url: a.mp4, start: 0.5}
                - {url: a.mp4, end: 5}

            """))
        let planner = WallSyncPlanner(opener: FFmpegMediaOpener(options: MediaOpenOptions(), warn: { _ in }), clockZeroUnixNanoseconds: 1_767_225_600_000_000_042)
        let sync = try #require(good.sync)
        guard case .success(let wall) = planner.wallSync(for: good.items, sync: sync) else {
            Issue.record("not planned: \(planner.wallSync(for: good.items, sync: sync))")
            return
        }
        let lengths = wall.plan.lengths
        #expect(Array(lengths.prefix(3)) == [MediaTime(8, per: 10), MediaTime(7, per: 10), MediaTime(3, per: 10)], "\(lengths)")
        // Untrimmed to the end: the media's own duration; an end past it is cut there.
        #expect(lengths[4] - lengths[3] == MediaTime(1, per: 2), "\(lengths)")
        #expect(lengths[4].seconds > 0.9 && lengths[4].seconds < 1.2, "\(lengths)")
        #expect(wall.plan.cycle == lengths.reduce(.zero, +))
        #expect(wall.plan.epochUnixMilliseconds == 1_767_225_600_250)
        #expect(wall.clockZeroUnixNanoseconds == 1_767_225_600_000_000_042)
        // 0.25 + 0.9 s after the epoch: 0.1 s into the second item.
        let position = wall.plan.position(atUnixTime: MediaTime(1_767_225_600_250, per: 1000) + MediaTime(9, per: 10))
        #expect(position.index == 1 && position.itemTime == MediaTime(1, per: 10) && position.cycleNumber == 0, "\(position)")

        let bad = try PlaybackPlan.fromConfig(path: folder.write("bad.yaml", """
            sync: {epoch: "2026-01-01T00:00:00Z"}
            playlist:
              items:
                - junk.mp4
                - {url: a.mp4, end: 0.4}
                - {url: a.mp4, start: 5}

            """))
        guard case .failure(let problems) = planner.wallSync(for: bad.items, sync: try #require(bad.sync)) else {
            Issue.record("a playlist with items of no known length was planned")
            return
        }
        #expect(problems.map(\.index) == [0, 2], "\(problems)")
        #expect(problems.first?.line.hasPrefix("sync: item 1 (\(junk)) cannot be opened to learn its length") == true, "\(problems)")
        #expect(problems.last?.line.hasPrefix("sync: item 3 (\(folder.url.path)/a.mp4) cannot be timed: start (") == true, "\(problems)")

        guard case .failure(let empty) = planner.wallSync(for: [], sync: sync) else {
            Issue.record("an empty playlist was planned")
            return
        }
        #expect(empty.map(\.line) == ["sync: item 1 (-) the playlist is empty: nothing to lock"])
    }
}

/// Where a plan's frames belong on the wall: each item's length and trimmed start.
struct WallLayout {
    let epoch: Double
    let lengths: [Double]
    let mediaStarts: [Double]

    var cycle: Double { lengths.reduce(0, +) }

    func cycleStart(of item: Int) -> Double { lengths.prefix(item).reduce(0, +) }

    /// How far from its slot on the wall a frame went up (seconds, the nearest cycle's).
    func offset(_ frame: WallFrames.Frame) -> Double {
        let due = cycleStart(of: frame.item) + max(0, frame.pts - mediaStarts[frame.item])
        let cycles = ((frame.wall - epoch - due) / cycle).rounded()
        return frame.wall - (epoch + cycles * cycle + due)
    }

    /// The wall time a `wallSyncJoined` event aimed its first frame at.
    func wallTime(ofJoin join: [String: Any]) -> Double? {
        guard let item = join["item"] as? Int, let cycleNumber = join["cycle"] as? Int, let itemTime = join["itemTime"] as? Double else { return nil }
        return epoch + Double(cycleNumber) * cycle + cycleStart(of: item) + itemTime
    }
}

/// The frames a locked player put up, by join: each join's first frame (mid-slot by design) apart.
struct WallFrames {
    struct Frame {
        var wall: Double
        var item: Int
        var pts: Double
    }

    struct Segment {
        var join: [String: Any]
        var joinFrame: Frame?
        var frames: [Frame] = []
    }

    var segments: [Segment] = []

    init(events: [[String: Any]]) {
        for event in events {
            switch event["event"] as? String {
            case "wallSyncJoined":
                segments.append(Segment(join: event))
            case "frame":
                guard !segments.isEmpty, event["dropped"] == nil, let wall = event["wall"] as? Double, let item = event["item"] as? Int,
                      let pts = event["pts"] as? Double else { continue }
                let frame = Frame(wall: wall, item: item, pts: pts)
                if segments[segments.count - 1].joinFrame == nil {
                    segments[segments.count - 1].joinFrame = frame
                } else {
                    segments[segments.count - 1].frames.append(frame)
                }
            default:
                continue
            }
        }
    }
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .infinity }
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}
