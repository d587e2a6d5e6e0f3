import Foundation
import MarqueeCore
import Synchronization
import Testing
@testable import MarqueePlayer

/// displayOff, displayOn and toggleDisplay on the one command path: the switches (the video
/// output, then e.g. HDMI-CEC) are told, playback pauses while off and goes on where it was.
@Suite struct QueuePlayerDisplayPowerTests {
    /// A headless output that also records what it was told about power.
    final class PoweredOutput: VideoOutput, DisplayPowerSwitching, @unchecked Sendable {
        let screen = HeadlessVideoOutput(size: PixelSize(width: 32, height: 18))
        let calls = Mutex<[Bool]>([])
        var screenSize: PixelSize { screen.screenSize }
        func prepare(_ draw: (PixelBuffer) throws -> Void) throws { try screen.prepare(draw) }
        func showPrepared() throws { try screen.showPrepared() }
        func setDisplayPower(on: Bool) throws { calls.withLock { $0.append(on) } }
    }

    /// A TV that does not answer: its error is one line, and the screen switch still acts.
    final class DeadTV: DisplayPowerSwitching {
        struct Silent: Error, CustomStringConvertible { var description: String { "/dev/cec0: no acknowledgement from the TV" } }
        func setDisplayPower(on: Bool) throws { throw Silent() }
    }

    private static func frames(_ events: [PlayerEvent]) -> [MediaTime] {
        events.compactMap { if case .frame(_, let pts, _, false, _) = $0 { pts } else { nil } }
    }

    @Test func offPausesAndTellsEverySwitchOnResumesWhereItWas() throws {
        let output = PoweredOutput()
        let recorder = EventRecorder()
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        // The virtual clock plays the 2 s clip in moments: off is sent from the event of the tenth
        // frame, on the present thread, so it lands mid-clip however slow the test thread is.
        let sender = Mutex<QueuePlayer?>(nil)
        let player = QueuePlayer(items: [QueueItem(url: "clip")], settings: settings,
                                 opener: ScriptedMedia(["clip": .video(frames: 50, frameDuration: MediaTime(1, per: 25))]),
                                 video: output, displayPower: [DeadTV()], clock: VirtualClock(), events: { event in
            recorder.record(event)
            if case .frame(_, let pts, _, false, _) = event, pts == MediaTime(9, per: 25) {
                sender.withLock { $0 }?.send(.command(.displayOff), from: .application)
            }
        })
        sender.withLock { $0 = player }
        player.start()
        #expect(recorder.wait { $0.contains(.displayPowerChanged(on: false)) })
        #expect(Self.frames(recorder.events).count >= 10)
        let shownWhileOff = Self.frames(recorder.events).count
        Thread.sleep(forTimeInterval: 0.3)
        // Off is paused: no frame is shown (nor decoded for showing) until the display is back.
        #expect(Self.frames(recorder.events).count == shownWhileOff)
        #expect(player.status().details.displayIsOn == false)
        #expect(recorder.events.contains(.playbackStateChanged(from: .playing, to: .paused)))
        #expect(recorder.events.contains(.error(message: "display: cannot turn off: /dev/cec0: no acknowledgement from the TV")))
        // Off again changes nothing and tells nobody.
        player.send(.command(.displayOff), from: .application)
        player.send(.command(.toggleDisplay), from: .application)
        #expect(player.waitUntilFinished(graceAfterShutDown: 10))

        #expect(output.calls.withLock { $0 } == [false, true])
        // Every frame of the clip was shown once, in order: on took it up where off left it.
        #expect(Self.frames(recorder.events) == (0..<50).map { MediaTime(1, per: 25) * Int64($0) })
        #expect(recorder.events.filter { if case .displayPowerChanged = $0 { true } else { false } }
                == [.displayPowerChanged(on: false), .displayPowerChanged(on: true)])
    }

    @Test func aPausedPlayerStaysPausedWhenTheDisplayComesOn() throws {
        let output = PoweredOutput()
        let recorder = EventRecorder()
        var settings = PlayerSettings()
        settings.repeatMode = .all
        let player = QueuePlayer(items: [QueueItem(url: "clip")], settings: settings,
                                 opener: ScriptedMedia(["clip": .video(frames: 50, frameDuration: MediaTime(1, per: 25))]),
                                 video: output, clock: VirtualClock(), events: { recorder.record($0) })
        player.start()
        defer { player.shutDown(); _ = player.waitUntilFinished(graceAfterShutDown: 10) }
        #expect(recorder.wait { Self.frames($0).count >= 5 })
        player.send(.command(.pause), from: .application)
        player.send(.command(.displayOff), from: .application)
        player.send(.command(.displayOn), from: .application)
        #expect(recorder.wait { $0.contains(.displayPowerChanged(on: true)) })
        Thread.sleep(forTimeInterval: 0.2)
        let states = recorder.events.compactMap { if case .playbackStateChanged(_, let to) = $0 { to } else { nil } }
        #expect(states.last == .paused, "\(states)")
        #expect(output.calls.withLock { $0 } == [false, true])
    }
}
