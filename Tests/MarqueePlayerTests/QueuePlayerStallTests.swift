import Foundation
import MarqueeCore
import Synchronization
import Testing
@testable import MarqueePlayer

private let frame25 = MediaTime(1, per: 25)

/// A source slower than real time is waited out, AVPlayer's way: the picture holds, the state goes to
/// `interrupted` with `playbackStalled`, and playback resumes when the item is likely to keep up,
/// with the timeline following the frame it resumes on. No frame is shown late, so the item never
/// plays in slow motion behind its timeline. And a remote item is opened only `readAhead` before it
/// is due.
@Suite struct QueuePlayerStallTests {
    private func play(_ items: [QueueItem], _ media: MediaOpening, clock: PlaybackClock, readAhead: Duration = .seconds(10),
                      stamped: StallStamped = StallStamped()) -> (QueuePlayer, StallStamped) {
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        settings.readAhead = readAhead
        let player = QueuePlayer(items: items, settings: settings, opener: media,
                                 video: HeadlessVideoOutput(size: PixelSize(width: 16, height: 9)),
                                 clock: clock, events: { stamped.record($0) })
        player.start()
        return (player, stamped)
    }

    /// The 50 KB/s case at scale: media arrives at half real time, 1 s of read-ahead. Presented as
    /// it trickled in, the 3 s item took 6 s and ended 3 s behind its timeline.
    @Test func aSourceAtHalfRealTimeStallsAndResumesInsteadOfPlayingInSlowMotion() {
        let media = ScriptedMedia(["slow": .trickling(frames: 75, frameDuration: frame25, mediaPerSecond: 0.5,
                                                      readAhead: MediaTime(seconds: 1))])
        let (player, stamped) = play([QueueItem(url: "slow")], media, clock: MonotonicClock())
        player.waitUntilFinished()

        let events = stamped.events
        let shown = events.filter { if case .frame(_, _, _, false, _) = $0 { true } else { false } }
        #expect(shown.count == 75, "every frame is shown, none dropped to catch up: \(shown.count)")
        let worst = stamped.lateness.max() ?? 0
        #expect(worst < 0.45, "a frame was shown \(Int(worst * 1000)) ms behind the timeline")
        let stalled = events.contains(.playbackStalled)
        let interrupted = events.contains(.playbackStateChanged(from: .playing, to: .interrupted))
        let resumed = events.contains(.playbackStateChanged(from: .interrupted, to: .playing))
        #expect(stalled && interrupted && resumed, "stalled \(stalled), interrupted \(interrupted), resumed \(resumed)")
        // Each stall is followed by its resume before the item ends.
        let stalls = events.indices.filter { events[$0] == .playbackStalled }
        let resumes = events.indices.filter { events[$0] == .loadStateChanged(.playthroughOK) }
        #expect(!stalls.isEmpty && resumes.count >= stalls.count, "stalls at \(stalls), resumes at \(resumes)")
        #expect(events.contains(.itemEnded(index: 0, url: "slow", reason: .playbackEnded, message: nil)))
    }

    /// Commands during a stall act on the held picture: a volume key and a screenshot every 0.1 s
    /// while media trickles in at half real time drop no frame and show none early (each command
    /// used to end the wait, and the frames that had trickled in meanwhile were dropped as late).
    @Test func commandsDuringAStallDropNoFrame() {
        let media = ScriptedMedia(["slow": .trickling(frames: 75, frameDuration: frame25, mediaPerSecond: 0.5,
                                                      readAhead: MediaTime(seconds: 1))])
        let (player, stamped) = play([QueueItem(url: "slow")], media, clock: MonotonicClock())
        let sending = Atomic<Bool>(true)
        let sender = Thread {
            var round = 0
            while sending.load(ordering: .relaxed) {
                if round % 2 == 0 { player.send(.command(.volumeDown), from: .application) } else { player.screenshot { _ in } }
                round += 1
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        sender.start()
        player.waitUntilFinished()
        sending.store(false, ordering: .relaxed)

        let events = stamped.events
        #expect(events.contains(.playbackStalled))
        let dropped = events.filter { if case .frame(_, _, _, true, _) = $0 { true } else { false } }.count
        let shown = events.filter { if case .frame(_, _, _, false, _) = $0 { true } else { false } }.count
        #expect(dropped == 0 && shown == 75, "\(dropped) dropped, \(shown) shown")
        let worst = stamped.lateness.max() ?? 0
        #expect(worst < 0.45, "a frame was shown \(Int(worst * 1000)) ms behind the timeline")
    }

    /// The sound holds with the picture: sound decoded ahead of a stalled picture (here 1 s of it)
    /// does not play on under the frozen frame.
    /// The device plays in real time and pauses as ALSA's hardware pause does.
    @Test func theSoundHoldsWithThePictureWhileAStallIsWaitedOut() throws {
        let device = PausableTestDevice()
        let media = ScriptedMedia(["slow": .stallingWithSound(frames: 75, frameDuration: frame25, stallingAt: 50, seconds: 1.5,
                                                              audioLead: MediaTime(seconds: 1))])
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        let heard = Mutex<(atStall: Int64?, atResume: Int64?)>((nil, nil))
        let player = QueuePlayer(items: [QueueItem(url: "slow")], settings: settings, opener: media,
                                 video: HeadlessVideoOutput(size: PixelSize(width: 16, height: 9)), audio: device,
                                 clock: MonotonicClock(), events: { event in
                                     switch event {
                                     case .playbackStalled:
                                         heard.withLock { $0.atStall = device.heard }
                                     case .playbackStateChanged(from: .interrupted, to: .playing):
                                         heard.withLock { $0.atResume = device.heard }
                                     default: break
                                     }
                                 })
        player.start()
        player.waitUntilFinished()

        let (atStall, atResume) = heard.withLock { $0 }
        let stall = try #require(atStall, "no stall")
        let resume = try #require(atResume, "no resume")
        // Silence while the picture holds (the events are stamped a few milliseconds late at most);
        // played on, the half second of sound still ahead of the picture would be heard.
        let during = Double(resume - stall) / 48
        #expect(during < 60, "\(Int(during)) ms of sound under the frozen picture")
    }

    /// A resumed item is given a run: it waits for its read-ahead to fill, not for the next frame,
    /// so a source at half speed does not stall on every other frame.
    @Test func aStallWaitsForTheReadAheadSoPlaybackResumesForARun() {
        let media = ScriptedMedia(["slow": .trickling(frames: 100, frameDuration: frame25, mediaPerSecond: 0.5,
                                                      readAhead: MediaTime(seconds: 1))])
        let (player, stamped) = play([QueueItem(url: "slow")], media, clock: MonotonicClock())
        player.waitUntilFinished()

        let stalls = stamped.events.filter { $0 == .playbackStalled }.count
        // 4 s at half speed with 1 s fetched ahead at each resume: a run of about 2 s each time, so a
        // few stalls; resuming on each frame would stall dozens of times.
        #expect(stalls >= 1 && stalls <= 4, "\(stalls) stalls")
    }

    /// The next item, remote, is opened `readAhead` before the item on screen ends: not at its start,
    /// which held a connection for the whole item and failed a loop when the server came up meanwhile.
    @Test func theNextRemoteItemIsOpenedReadAheadBeforeItIsDue() throws {
        let remote = "http://signage.invalid/next.mp4"
        let media = ScriptedMedia(["local": .video(frames: 100, frameDuration: frame25),
                                   remote: .video(frames: 5, frameDuration: frame25),
                                   "local2": .video(frames: 5, frameDuration: frame25)])
        let stamped = StallStamped()
        let watcher = OpenWatcher(media, events: stamped)
        let (player, _) = play([QueueItem(url: "local"), QueueItem(url: remote), QueueItem(url: "local2")], watcher,
                               clock: VirtualClock(), readAhead: .seconds(1), stamped: stamped)
        player.waitUntilFinished()

        // Item 0 lasts 4 s: the remote item opens once 3 s of it are on screen.
        let shownAtOpen = try #require(watcher.lastFrameShown(whenOpening: remote))
        #expect(shownAtOpen.item == 0 && shownAtOpen.pts >= MediaTime(296, per: 100) && shownAtOpen.pts < MediaTime(seconds: 4),
                "opened while frame \(shownAtOpen) was up")
        // A local item is opened as before, once the item before it is on screen (the decode thread
        // opens it a moment later, while the virtual clock races on: within the 0.2 s item).
        let beforeLocal = try #require(watcher.lastFrameShown(whenOpening: "local2"))
        #expect(beforeLocal.item == 1, "local2 opened while item \(beforeLocal.item) was up")
        let started = stamped.events.filter { if case .itemStarted = $0 { true } else { false } }
        #expect(started.count == 3)
    }
}

/// Notes which frame was on screen when each URL was opened.
private final class OpenWatcher: MediaOpening, @unchecked Sendable {
    private let media: ScriptedMedia
    private let lock = NSLock()
    private var shownAtOpen: [String: (item: Int, pts: MediaTime)] = [:]
    private let events: StallStamped

    init(_ media: ScriptedMedia, events: StallStamped) {
        self.media = media
        self.events = events
    }

    func open(_ url: String) throws -> MediaReader {
        let last = events.lastShownFrame
        lock.withLock { if let last { shownAtOpen[url] = last } }
        return try media.open(url)
    }

    func lastFrameShown(whenOpening url: String) -> (item: Int, pts: MediaTime)? {
        lock.withLock { shownAtOpen[url] }
    }
}

/// Events with the real time they were emitted.
final class StallStamped: Sendable {
    private let recorded = Mutex<[(event: PlayerEvent, at: ContinuousClock.Instant)]>([])
    func record(_ event: PlayerEvent) { recorded.withLock { $0.append((event, .now)) } }
    var all: [(event: PlayerEvent, at: ContinuousClock.Instant)] { recorded.withLock { $0 } }
    var events: [PlayerEvent] { all.map(\.event) }

    /// The last frame shown so far.
    var lastShownFrame: (item: Int, pts: MediaTime)? {
        for stamp in all.reversed() {
            if case .frame(let item, let pts, _, false, _) = stamp.event { return (item, pts) }
        }
        return nil
    }

    /// How late each presented frame appeared against its place on the timeline, taking the
    /// first frame as on time: (real time since the first) − (timeline time since the first).
    /// Playing in slow motion makes this grow without bound.
    var lateness: [Double] {
        let shown = all.compactMap { stamp -> (time: MediaTime, at: ContinuousClock.Instant)? in
            if case .frame(_, _, let time, false, _) = stamp.event { return (time, stamp.at) }
            return nil
        }
        guard let first = shown.first else { return [] }
        return shown.map { ($0.at - first.at) / .seconds(1) - ($0.time - first.time).seconds }
    }
}

