import Foundation
import MarqueeCore
import Synchronization
import Testing
@testable import MarqueePlayer

/// The first picture goes up when its first sound is heard, not after it. In the guest the device
/// played 15–18 ms of the item before its position was first known (dmix under TCG), so the first
/// picture went up that late against its sound while every later one was on time, and the A/V
/// test saw its first beep 20 ms off from the rest. A device that starts late (40 ms) but knows
/// its position at once, and one that starts at once, must keep working as they did.
@Suite struct SoundStartSyncTests {
    static let frameDuration = MediaTime(1, per: 25)

    @Test(arguments: [(0, 0), (40, 0), (10, 20)])
    func theFirstPictureShowsWhenItsFirstSoundIsHeard(startLatencyMilliseconds: Int, unknownMilliseconds: Int) throws {
        let device = PausableTestDevice(startLatency: .milliseconds(startLatencyMilliseconds),
                                        positionUnknownFor: .milliseconds(unknownMilliseconds))
        let media = ScriptedMedia(["clip": .video(frames: 25, frameDuration: Self.frameDuration, withAudio: true)])
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        settings.followsAudioClock = true
        // What had sounded when each frame went up: heard when its event is seen, less the frames
        // that sounded since its flip (the event's stamp). Read at the callback alone, the first
        // frame came out late by the item's announcements delivered before it on a loaded machine
        // (12.75 ms in a clean-clone run, with the device starting 40 ms late).
        let heardAtFrames = Mutex<[Int64]>([])
        let clock = MonotonicClock()
        let player = QueuePlayer(items: [QueueItem(url: "clip")], settings: settings, opener: media,
                                 video: HeadlessVideoOutput(size: PixelSize(width: 16, height: 9)), audio: device,
                                 clock: clock, stampedEvents: { event, flippedAt in
                                     guard case .frame(_, _, _, false, _) = event else { return }
                                     let heard = device.heard
                                     let sinceFlip = (clock.now() - flippedAt).ticks(timescale: 48000)
                                     heardAtFrames.withLock { $0.append(heard - sinceFlip) }
                                 })
        player.start()
        player.waitUntilFinished()

        let heard = heardAtFrames.withLock { $0 }
        try #require(heard.count >= 10, "\(heard.count) frames shown")
        let leadIn = QueuePlayer.soundLeadIn.ticks(timescale: 48000, rounding: .toNearestOrAwayFromZero)
        // Item time of the sound heard as each frame went up, against the frame's own time.
        let offsets = heard.prefix(10).enumerated().map { index, frames in
            Double(frames - leadIn) / 48 - Double(index) * Self.frameDuration.seconds * 1000
        }
        // The first against the rest: within a few milliseconds of scheduling on a loaded machine.
        let rest = offsets.dropFirst().sorted()[offsets.count / 2 - 1]
        #expect(abs(offsets[0] - rest) < 12, "ms of sound heard ahead of each picture: \(offsets.map { Int($0.rounded()) })")
        #expect(abs(offsets[0]) < 12, "the first picture went up \(Int(offsets[0])) ms after its sound began")
    }
}
