import Foundation
import MarqueeCore
import Synchronization

/// A 48 kHz device with a clock of its own, for the audio-clock tests: it begins playing
/// `startDelay` after its first write (as ALSA waits for its start threshold), then plays `speed`
/// times as fast as the monotonic clock (a sound card whose crystal is off), with a 100 ms buffer:
/// writes block while it is full, and it reports what it has played.
final class ClockedTestDevice: AudioOutput, @unchecked Sendable {
    let format = AudioFormat.standard
    let speed: Double
    private let startDelay: Duration
    private let state = Mutex<(firstWrite: ContinuousClock.Instant?, written: Int64)>((nil, 0))
    private let bufferFrames: Int64 = 4800

    init(speed: Double = 1, startDelay: Double = 0) {
        self.speed = speed
        self.startDelay = .microseconds(Int64(startDelay * 1_000_000))
    }

    /// When it began playing; nil before its first write.
    var startedAt: ContinuousClock.Instant? { state.withLock { $0.firstWrite.map { $0 + startDelay } } }

    private func played(at now: ContinuousClock.Instant, since firstWrite: ContinuousClock.Instant, written: Int64) -> Int64 {
        let elapsed = (now - (firstWrite + startDelay)) / .seconds(1)
        return min(written, max(0, Int64(elapsed * 48000 * speed)))
    }

    func write(_ samples: [Float]) throws {
        let frames = Int64(samples.count / 2)
        while true {
            let fits = state.withLock { state -> Bool in
                let now = ContinuousClock.now
                let firstWrite = state.firstWrite ?? now
                guard state.written + frames - played(at: now, since: firstWrite, written: state.written) <= bufferFrames
                    || state.written == 0 else { return false }
                state.firstWrite = firstWrite
                state.written += frames
                return true
            }
            if fits { return }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    func framesPlayed() -> Int64? {
        state.withLock { state in state.firstWrite.map { played(at: .now, since: $0, written: state.written) } }
    }
}
