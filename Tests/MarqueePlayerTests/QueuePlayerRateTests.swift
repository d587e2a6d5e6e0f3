import Foundation
import MarqueeCore
import Synchronization
import Testing
@testable import MarqueePlayer

/// The playback rate on the virtual clock: playback time runs `rate` times as fast as the clock,
/// every frame still has its slot (the virtual clock drops none), and a change keeps the timeline
/// continuous.
@Suite struct QueuePlayerRateTests {
    static let frameDuration = MediaTime(1, per: 25)

    /// Each frame event with the clock time it was presented at.
    final class ClockedFrames: @unchecked Sendable {
        struct Frame { var clock: MediaTime; var pts: MediaTime; var time: MediaTime; var dropped: Bool }
        let clock: VirtualClock
        let recorder = EventRecorder()
        private let lock = NSLock()
        private var recorded: [Frame] = []
        /// Runs on the present thread with each frame (e.g. to send a command at one).
        var onFrame: @Sendable (Frame) -> Void = { _ in }

        init(clock: VirtualClock) { self.clock = clock }

        func record(_ event: PlayerEvent) {
            if case .frame(_, let pts, let time, let dropped, _) = event {
                let frame = Frame(clock: clock.now(), pts: pts, time: time, dropped: dropped)
                lock.withLock { recorded.append(frame) }
                onFrame(frame)
            }
            recorder.record(event)
        }

        var frames: [Frame] { lock.withLock { recorded } }
    }

    /// A 100-frame (4 s) clip, repeat off, played to its end; `prepare` runs before it starts.
    private func play(frames: Int = 100, audio: AudioOutput? = nil, withAudio: Bool = false,
                      prepare: (QueuePlayer, ClockedFrames) -> Void) -> (ClockedFrames, QueuePlayer) {
        let clock = VirtualClock()
        let log = ClockedFrames(clock: clock)
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        let player = QueuePlayer(items: [QueueItem(url: "clip")], settings: settings,
                                 opener: ScriptedMedia(["clip": .video(frames: frames, frameDuration: Self.frameDuration, withAudio: withAudio)]),
                                 video: HeadlessVideoOutput(size: PixelSize(width: 32, height: 18)), audio: audio,
                                 clock: clock, events: { log.record($0) })
        prepare(player, log)
        player.start()
        #expect(player.waitUntilFinished(graceAfterShutDown: 10))
        return (log, player)
    }

    private func expectEveryFrameShown(_ frames: [ClockedFrames.Frame], count: Int = 100) {
        #expect(frames.count == count)
        #expect(frames.allSatisfy { !$0.dropped })
        #expect(frames.map(\.pts) == (0..<count).map { Self.frameDuration * Int64($0) })
        #expect(frames.map(\.time) == frames.map(\.pts), "the timeline is playback time: one frame slot after another")
    }

    @Test func atRateTwoFourSecondsPlayInTwo() {
        let (log, player) = play { player, _ in player.send(.setRate(2), from: .application) }
        let frames = log.frames
        expectEveryFrameShown(frames)
        for frame in frames { #expect(frame.clock == frame.time.multiplied(by: MediaTime(1, per: 2))) }
        // The item ends after its last frame's slot: 4 s of media, 2 s of clock.
        #expect(log.clock.now() == MediaTime(seconds: 2))
        #expect(player.status().details.rate == 2)
        #expect(!log.recorder.events.contains { if case .timeJumped = $0 { true } else { false } })
    }

    @Test func atRateOneHalfFourSecondsPlayInEight() {
        let (log, player) = play { player, _ in player.send(.setRate(0.5), from: .application) }
        let frames = log.frames
        expectEveryFrameShown(frames)
        for frame in frames { #expect(frame.clock == frame.time * 2) }
        #expect(log.clock.now() == MediaTime(seconds: 8))
        #expect(player.status().details.rate == 0.5)
    }

    /// One second at 1, then 2: the frame after the change is the next one, on the same timeline,
    /// and the rest of the clip takes half as long.
    @Test func aChangeMidItemKeepsTheTimelineContinuous() {
        let (log, _) = play { player, log in
            log.onFrame = { frame in
                if frame.pts == MediaTime(seconds: 1) { player.send(.setRate(2), from: .application) }
                if frame.pts == MediaTime(seconds: 3) { player.send(.setRate(0.25), from: .application) }
            }
        }
        let frames = log.frames
        expectEveryFrameShown(frames)
        for frame in frames {
            let expected: MediaTime
            if frame.time <= MediaTime(seconds: 1) {
                expected = frame.time
            } else if frame.time <= MediaTime(seconds: 3) {
                expected = MediaTime(seconds: 1) + (frame.time - MediaTime(seconds: 1)).multiplied(by: MediaTime(1, per: 2))
            } else {
                expected = MediaTime(seconds: 2) + (frame.time - MediaTime(seconds: 3)) * 4
            }
            #expect(frame.clock == expected, "frame \(frame.pts)")
        }
        #expect(log.clock.now() == MediaTime(seconds: 6))
        #expect(!log.recorder.events.contains { if case .timeJumped = $0 { true } else { false } })
        #expect(log.recorder.events.contains(.command(.setRate(2), source: .application)))
    }

    /// A pause at rate 2 holds the picture; play resumes on the same timeline at the same rate.
    @Test func pauseAndPlayKeepTheRate() {
        let (log, player) = play { player, log in
            player.send(.setRate(2), from: .application)
            log.onFrame = { frame in
                if frame.pts == MediaTime(seconds: 1) {
                    player.send(.pause)
                    // Paused for a second of clock time, then on.
                    Thread { log.recorder.wait { $0.contains(.playbackStateChanged(from: .playing, to: .paused)) }
                        log.clock.advance(by: MediaTime(seconds: 1))
                        player.send(.play) }.start()
                }
            }
        }
        let frames = log.frames
        expectEveryFrameShown(frames)
        #expect(player.status().details.rate == 2)
        for frame in frames where frame.time > MediaTime(seconds: 1) {
            // Paused at clock 0.5 (playback 1), resumed at 1.5: a second of clock later.
            #expect(frame.clock == MediaTime(seconds: 1) + frame.time.multiplied(by: MediaTime(1, per: 2)), "frame \(frame.pts) after the pause")
        }
        #expect(!log.recorder.events.contains { if case .timeJumped = $0 { true } else { false } })
    }

    /// With an audio output, a rate other than 1 drops the decoded sound instead of queueing it at
    /// 1x: at 4 the pipeline never waits on the audio thread, every frame is shown, and nothing of
    /// the clip's sound is written.
    @Test func audioIsDroppedAtAnotherRate() {
        let audio = NullAudioOutput(keepsSamples: false)
        let (log, _) = play(frames: 400, audio: audio, withAudio: true) { player, _ in player.send(.setRate(4), from: .application) }
        expectEveryFrameShown(log.frames, count: 400)
        #expect(log.clock.now() == MediaTime(seconds: 4))
        #expect(audio.framesWritten == 0)
    }

    /// Back at 1 the sound comes back from the position on screen (a seek with the sound), and
    /// plays to the item's end.
    @Test func soundResumesAtRateOne() {
        let audio = NullAudioOutput(keepsSamples: false)
        let (log, _) = play(audio: audio, withAudio: true) { player, log in
            player.send(.setRate(2), from: .application)
            log.onFrame = { frame in
                if frame.pts == MediaTime(seconds: 2) { player.send(.setRate(1), from: .application) }
            }
        }
        let shown = log.frames.filter { !$0.dropped }
        #expect(shown.first?.pts == .zero)
        #expect(shown.last?.pts == Self.frameDuration * 99)
        // The last two seconds are heard (the sound comes back with the frame on screen at 2 s).
        let rate = Int64(audio.format.sampleRate)
        #expect(audio.framesWritten >= rate * 2 - rate / 25 && audio.framesWritten <= rate * 2 + rate / 10,
                "\(audio.framesWritten) frames written")
    }
}

/// A stretcher for the engine's bookkeeping (the real one, atempo, is proven in MarqueeMediaTests
/// and through alsa-lib in MarqueeALSATests): it keeps one frame in `rate` (nearest), so n frames
/// in make n / rate out, and holds nothing back.
final class NearestFrameStretching: AudioTimeStretching, @unchecked Sendable {
    let fails: Bool
    init(fails: Bool = false) { self.fails = fails }
    var name: String { "nearest frame" }

    final class Stretcher: AudioTimeStretcher {
        let rate: Double
        let channels: Int
        private var framesIn = 0
        private var framesOut = 0
        init(rate: Double, channels: Int) { self.rate = rate; self.channels = channels }

        func process(_ samples: [Float]) throws -> [Float] {
            let start = framesIn
            framesIn += samples.count / channels
            var output: [Float] = []
            while Double(framesOut) * rate < Double(framesIn) {
                let source = Int(Double(framesOut) * rate) - start
                output += samples[(source * channels)..<((source + 1) * channels)]
                framesOut += 1
            }
            return output
        }

        func finish() throws -> [Float] { [] }
    }

    struct Unavailable: Error, CustomStringConvertible { var description: String { "no atempo here" } }

    func makeStretcher(rate: Double, format: AudioFormat) throws -> AudioTimeStretcher {
        if fails { throw Unavailable() }
        return Stretcher(rate: rate, channels: format.channelCount)
    }
}

@Suite struct QueuePlayerStretchedRateTests {
    static let frameDuration = MediaTime(1, per: 25)

    private func play(stretching: AudioTimeStretching, rate: Double, audio: NullAudioOutput) -> (EventRecorder, VirtualClock) {
        let clock = VirtualClock()
        let recorder = EventRecorder()
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        let player = QueuePlayer(items: [QueueItem(url: "clip")], settings: settings,
                                 opener: ScriptedMedia(["clip": .video(frames: 400, frameDuration: Self.frameDuration, withAudio: true)]),
                                 video: HeadlessVideoOutput(size: PixelSize(width: 32, height: 18)), audio: audio,
                                 audioStretching: stretching, clock: clock, events: { recorder.record($0) })
        player.send(.setRate(rate), from: .application)
        player.start()
        #expect(player.waitUntilFinished(graceAfterShutDown: 10))
        return (recorder, clock)
    }

    /// With a stretcher, 16 s of sound at rate 4 is written as 4 s: heard, not dropped.
    @Test func atRateFourTheSoundIsStretchedNotDropped() {
        let audio = NullAudioOutput(keepsSamples: false)
        let (recorder, clock) = play(stretching: NearestFrameStretching(), rate: 4, audio: audio)
        #expect(clock.now() == MediaTime(seconds: 4))
        let expected = Int64(audio.format.sampleRate) * 4
        #expect(abs(audio.framesWritten - expected) <= 4, "\(audio.framesWritten) frames written, expected \(expected)")
        #expect(recorder.events.contains { if case .rateChanged(4, .stretched) = $0 { true } else { false } })
    }

    /// A backend that cannot stretch: one error line, and the sound is muted at that rate.
    @Test func aStretcherThatCannotBeBuiltMutesTheSoundWithOneError() {
        let audio = NullAudioOutput(keepsSamples: false)
        let (recorder, _) = play(stretching: NearestFrameStretching(fails: true), rate: 2, audio: audio)
        #expect(audio.framesWritten == 0)
        #expect(recorder.events.contains { if case .rateChanged(2, .muted) = $0 { true } else { false } })
        let errors = recorder.events.compactMap { if case .error(let message) = $0 { message } else { nil } }
        #expect(errors == ["rate 2.0: the sound cannot be time-stretched (no atempo here); it is muted at rates other than 1"], "\(errors)")
    }

    /// Device frames after a stretched anchor stand for `rate` item frames each.
    @Test func anAnchorMapsDeviceFramesAtItsRate() {
        let anchor = AudioRenderer.Anchor(serial: 1, streamFrame: 1000, itemFrame: 48000, rate: MediaTime(2, per: 1))
        #expect(anchor.itemFrame(atStreamFrame: 1000) == 48000)
        #expect(anchor.itemFrame(atStreamFrame: 25000) == 96000)
        let slow = AudioRenderer.Anchor(serial: 1, streamFrame: 0, itemFrame: 0, rate: MediaTime(1, per: 4))
        #expect(slow.itemFrame(atStreamFrame: 4801) == 1200)
    }
}
