import Foundation
import MarqueeCore
import Testing
@testable import MarqueePlayer

/// systemd's notify protocol over a real unix datagram socket (no systemd needed), and the
/// watchdog pinged from the present thread's loop: at its rate while playing and while paused,
/// and not at all while the present thread is stuck.
@Suite(.serialized) struct WatchdogTests {
    @Test func notifierSendsDatagramsToAbstractAndPathSockets() throws {
        let abstract = try NotifySocket()
        let notifier = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": abstract.name, "WATCHDOG_USEC": "3000000"]))
        #expect(notifier.watchdogInterval == .milliseconds(1500))
        #expect(notifier.send("READY=1\nSTATUS=playing"))
        #expect(abstract.wait { $0.map(\.text) == ["READY=1\nSTATUS=playing"] })

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString)").path
        let file = try NotifySocket(name: path)
        let second = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": path]))
        #expect(second.watchdogInterval == nil)
        #expect(second.send("WATCHDOG=1"))
        #expect(file.wait { $0.map(\.text) == ["WATCHDOG=1"] })
    }

    @Test func noSocketNoNotifierAndAWatchdogForAnotherProcessIsNotOurs() {
        #expect(SystemdNotifier(environment: [:]) == nil)
        let other = SystemdNotifier(environment: ["NOTIFY_SOCKET": "@x", "WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "1"])
        #expect(other?.watchdogInterval == nil)
    }

    @Test func pingsComeAtTheirRateWhilePlayingAndPausedAndStopWhenThePresentThreadIsStuck() throws {
        let socket = try NotifySocket()
        let interval = Duration.milliseconds(150)
        let notifier = try #require(SystemdNotifier(socketPath: socket.name, watchdogInterval: interval))
        let pinger = WatchdogPinger(notifier: notifier, interval: interval)
        let output = FreezableOutput()
        let media = ScriptedMedia(["long": .video(frames: 1000, frameDuration: MediaTime(1, per: 25))])
        let recorder = EventRecorder()
        let player = QueuePlayer(items: [QueueItem(url: "long")], settings: PlayerSettings(), opener: media, video: output,
                                 clock: MonotonicClock(), heartbeat: { pinger.tick() }, events: { recorder.record($0) })
        player.start()
        defer {
            output.thaw()
            player.shutDown()
            player.waitUntilFinished()
        }
        #expect(recorder.wait { $0.frameCount > 0 })

        func pings(during seconds: Double) -> [ContinuousClock.Instant] {
            let start = ContinuousClock.now
            Thread.sleep(forTimeInterval: seconds)
            let end = ContinuousClock.now
            return socket.times(of: "WATCHDOG=1").filter { $0 >= start && $0 <= end }
        }
        func gaps(_ times: [ContinuousClock.Instant]) -> [Double] {
            zip(times, times.dropFirst()).map { ($1 - $0) / .seconds(1) }
        }
        // Never faster than the interval; never slower than interval + the loop's heartbeat + slack.
        let slowest = 0.15 + QueuePlayer.heartbeatInterval + 0.1

        let playing = pings(during: 1.5)
        #expect((6...11).contains(playing.count), "\(playing.count) pings in 1.5 s while playing")
        #expect(gaps(playing).allSatisfy { $0 >= 0.1 && $0 <= slowest }, "\(gaps(playing))")

        player.send(.pause)
        #expect(recorder.wait { $0.contains(.playbackStateChanged(from: .playing, to: .paused)) })
        let paused = pings(during: 1.5)
        #expect((5...11).contains(paused.count), "\(paused.count) pings in 1.5 s while paused")
        #expect(gaps(paused).allSatisfy { $0 >= 0.1 && $0 <= slowest }, "\(gaps(paused))")

        // A screen whose page flip never completes: the present thread is stuck in showPrepared().
        output.freeze()
        player.send(.play)
        #expect(output.waitUntilStuck())
        Thread.sleep(forTimeInterval: 0.2)
        let frozen = pings(during: 1.5)
        #expect(frozen.isEmpty, "\(frozen.count) pings while the present thread was stuck")

        output.thaw()
        let recovered = pings(during: 1.0)
        #expect(recovered.count >= 4, "\(recovered.count) pings after the present thread came back")
    }
}

/// A screen that can be made to hang in showPrepared(), as a page flip that never completes would.
final class FreezableOutput: VideoOutput, @unchecked Sendable {
    private let inner = HeadlessVideoOutput(size: PixelSize(width: 64, height: 36))
    private let gate = NSCondition()
    private var frozen = false
    private var stuck = false

    var screenSize: PixelSize { inner.screenSize }

    func prepare(_ draw: (PixelBuffer) throws -> Void) throws {
        try inner.prepare(draw)
    }

    func showPrepared() throws {
        gate.lock()
        while frozen {
            stuck = true
            gate.broadcast()
            gate.wait()
        }
        stuck = false
        gate.unlock()
        try inner.showPrepared()
    }

    func freeze() { gate.withLock { frozen = true } }

    func thaw() {
        gate.lock()
        frozen = false
        gate.broadcast()
        gate.unlock()
    }

    func waitUntilStuck(seconds: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        gate.lock()
        defer { gate.unlock() }
        while !stuck { if !gate.wait(until: deadline) { return stuck } }
        return true
    }
}
