import Foundation
import MarqueeCore
import Synchronization
import Testing
@testable import MarqueePlayer

/// Frame-locked playback with a device that keeps its own time: the picture stays on the wall, and
/// the sound is brought onto it by playing it a little faster or slower (never by moving the
/// picture, never by cutting). The resampler here is a stand-in that records the paces asked for;
/// libswresample's compensation is tested against real audio in MarqueeMediaTests.
@Suite struct QueuePlayerWallSyncAudioTests {
    /// Nearest-frame resampling at a pace, recording each pace it was made for.
    final class PaceRecorder: AudioTimeStretching, @unchecked Sendable {
        let paces = Mutex<[Double]>([])
        var name: String { "test pace" }

        func makeStretcher(rate: Double, format: AudioFormat) throws -> AudioTimeStretcher {
            paces.withLock { $0.append(rate) }
            return Stretcher(rate: rate)
        }

        final class Stretcher: AudioTimeStretcher {
            let rate: Double
            private var position = 0.0
            init(rate: Double) { self.rate = rate }

            func process(_ samples: [Float]) throws -> [Float] {
                let frames = samples.count / 2
                var output: [Float] = []
                while Int(position) < frames {
                    output.append(samples[Int(position) * 2])
                    output.append(samples[Int(position) * 2 + 1])
                    position += rate
                }
                position -= Double(frames)
                return output
            }

            func finish() throws -> [Float] { [] }
        }
    }

    /// Plays 8 s of a 25 fps item with sound, locked to the wall, on a device `speed` times as fast
    /// as the wall; returns the paces asked for and the events.
    static func play(deviceSpeed speed: Double) throws -> (paces: [Double], events: [PlayerEvent]) {
        let device = ClockedTestDevice(speed: speed, startDelay: 0)
        let media = ScriptedMedia(["a": .video(frames: 100, frameDuration: MediaTime(1, per: 25), withAudio: true)])
        let clock = WallClockTime()
        var settings = PlayerSettings()
        settings.followsAudioClock = true
        let plan = try #require(WallSyncPlan(epochUnixMilliseconds: 1_767_225_600_000, lengths: [MediaTime(seconds: 4)]))
        settings.wallSync = WallSync(plan: plan, clockZeroUnixNanoseconds: clock.zeroUnixNanoseconds)
        let recorder = EventRecorder()
        let paces = PaceRecorder()
        let player = QueuePlayer(items: [QueueItem(url: "a")], settings: settings, opener: media,
                                 video: HeadlessVideoOutput(size: PixelSize(width: 16, height: 9)), audio: device,
                                 audioStretching: paces, clock: clock, events: { recorder.record($0) })
        player.start()
        Thread.sleep(forTimeInterval: 8)
        player.shutDown()
        player.waitUntilFinished()
        return (paces.paces.withLock { $0 }, recorder.events)
    }

    @Test func soundOnAFastDeviceIsSlowedOntoTheWall() throws {
        let (paces, events) = try Self.play(deviceSpeed: 1.003)
        // 0.3 % fast: the sound has to be played about 0.3 % slower, and never more than 0.5 %.
        #expect(!paces.isEmpty)
        #expect(paces.allSatisfy { (0.995...1.005).contains($0) }, "\(paces)")
        let last = try #require(paces.last)
        #expect((0.995...0.9985).contains(last), "paces \(paces)")
        print("fast device paces: \(paces)")
        // The picture never left the wall for it: one join, at the start.
        let joins = events.filter { if case .wallSyncJoined = $0 { true } else { false } }
        #expect(joins.count == 1, "\(joins)")
    }

    @Test func soundOnADeviceThatKeepsTheWallsTimeIsLeftAlone() throws {
        let (paces, events) = try Self.play(deviceSpeed: 1)
        // Within a step or two of its own pace: the dead band keeps jitter from moving it.
        #expect(paces.allSatisfy { (0.999...1.001).contains($0) }, "\(paces)")
        print("steady device paces: \(paces)")
        #expect(events.filter { if case .wallSyncJoined = $0 { true } else { false } }.count == 1)
    }
}
