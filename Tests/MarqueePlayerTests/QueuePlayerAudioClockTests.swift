import Foundation
import MarqueeCore
import Synchronization
import Testing
@testable import MarqueePlayer

@Suite struct QueuePlayerAudioClockTests {
    @Test func videoFollowsADeviceThatRunsFast() throws {
        // 3 s at 25 fps; the device plays 3 % fast, so by the end its audio is 87 ms ahead of the
        // monotonic clock. Each frame must appear when the device plays its time, within 15 ms.
        let speed = 1.03
        let device = ClockedTestDevice(speed: speed)
        let media = ScriptedMedia(["a": .video(frames: 75, frameDuration: MediaTime(1, per: 25), withAudio: true)])
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        settings.followsAudioClock = true
        let shown = Mutex<[(itemTime: Double, at: ContinuousClock.Instant)]>([])
        let player = QueuePlayer(items: [QueueItem(url: "a")], settings: settings, opener: media,
                                 video: HeadlessVideoOutput(size: PixelSize(width: 16, height: 9)), audio: device,
                                 clock: MonotonicClock(), events: { event in
                                     if case .frame(_, _, let time, false, _) = event { shown.withLock { $0.append((time.seconds, .now)) } }
                                 })
        player.start()
        player.waitUntilFinished()
        let frames = shown.withLock { $0 }
        let started = try #require(device.startedAt)
        #expect(frames.count >= 70)
        var worst = 0.0
        for frame in frames where frame.itemTime >= 1 {
            let (seconds, attoseconds) = (frame.at - started).components
            let at = Double(seconds) + Double(attoseconds) / 1e18
            // The device starts with the lead-in's silence before the item's first frame.
            worst = max(worst, abs(at - (frame.itemTime + QueuePlayer.soundLeadIn.seconds) / speed))
        }
        #expect(worst < 0.015, "worst distance from the device's clock \(Int(worst * 1000)) ms; the monotonic clock would be off by up to 87 ms")
        print("audio-clock follow: worst \(String(format: "%.1f", worst * 1000)) ms over \(frames.count) frames")
    }

    @Test func volumeCommandsChangeTheGainAndReportIt() {
        let media = ScriptedMedia(["a": .video(frames: 5, frameDuration: MediaTime(1, per: 25), withAudio: true)])
        var settings = PlayerSettings()
        settings.repeatMode = .one
        settings.volume = 0.5
        let recorder = EventRecorder()
        let player = QueuePlayer(items: [QueueItem(url: "a")], settings: settings, opener: media,
                                 video: HeadlessVideoOutput(size: PixelSize(width: 16, height: 9)),
                                 audio: NullAudioOutput(), clock: VirtualClock(), events: { recorder.record($0) })
        player.start()
        for command in [Command.volumeUp, .volumeDown, .volumeDown, .toggleMute, .toggleMute] { player.send(command) }
        let done = recorder.wait(seconds: 10) { $0.filter { if case .volumeChanged = $0 { true } else { false } }.count == 5 }
        player.shutDown()
        player.waitUntilFinished()
        #expect(done)
        let changes = recorder.events.compactMap { event -> String? in
            if case .volumeChanged(let volume, let muted) = event { return "\(volume) \(muted)" }
            return nil
        }
        #expect(changes == ["0.6 false", "0.5 false", "0.4 false", "0.4 true", "0.4 false"])
    }
}
