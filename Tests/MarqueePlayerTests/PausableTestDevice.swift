import Foundation
import MarqueeCore
import Synchronization

/// A 48 kHz device that plays in real time from its first write, with a 100 ms buffer (writes
/// block while it is full), and pauses as ALSA's hardware pause does: what it holds stops
/// sounding at once and writes wait until it resumes. Run dry, it stops until the next write.
/// `heard` says how many frames have sounded so far, so a test can tell sound from silence over
/// any stretch of real time. With `startLatency`, the very first sound comes that long after the
/// first write (a real device's start-up: ALSA's start threshold, the DAC), with no position meanwhile;
/// with `positionUnknownFor`, it has no position for that long after its sound began either (the
/// guest's dmix under TCG: the first frame was on screen 18 ms after its sound).
final class PausableTestDevice: AudioOutput, @unchecked Sendable {
    let format = AudioFormat.standard
    private struct State {
        var written: Int64 = 0
        /// Frames heard before the current run began.
        var heardBefore: Int64 = 0
        /// When the current run began; nil while paused or dry.
        var runningSince: ContinuousClock.Instant?
        var paused = false
    }
    private let state = Mutex(State())
    private let startLatency: Duration
    private let positionUnknownFor: Duration
    private let hasStarted = Atomic<Bool>(false)
    private let firstSound = Mutex<ContinuousClock.Instant?>(nil)

    init(startLatency: Duration = .zero, positionUnknownFor: Duration = .zero) {
        self.startLatency = startLatency
        self.positionUnknownFor = positionUnknownFor
    }
    private static let bufferFrames: Int64 = 4800

    /// Brings `heardBefore` up to `now`; a device that has played everything stops.
    private static func settle(_ state: inout State, at now: ContinuousClock.Instant) {
        guard let since = state.runningSince, since <= now else { return }
        let heard = state.heardBefore + Int64((now - since) / .seconds(1) * 48000)
        if heard >= state.written {
            state.heardBefore = state.written
            state.runningSince = nil
        } else {
            state.heardBefore = heard
            state.runningSince = now
        }
    }

    func write(_ samples: [Float]) throws {
        let frames = Int64(samples.count / format.channelCount)
        while true {
            let fits = state.withLock { state -> Bool in
                guard !state.paused else { return false }
                let now = ContinuousClock.now
                Self.settle(&state, at: now)
                guard state.written + frames - state.heardBefore <= Self.bufferFrames || state.written == state.heardBefore else { return false }
                state.written += frames
                if state.runningSince == nil {
                    let first = !hasStarted.exchange(true, ordering: .relaxed)
                    state.runningSince = first ? now + startLatency : now
                    if first { firstSound.withLock { $0 = now + startLatency } }
                }
                return true
            }
            if fits { return }
            Thread.sleep(forTimeInterval: 0.002)
        }
    }

    func setPaused(_ paused: Bool) {
        state.withLock { state in
            guard paused != state.paused else { return }
            let now = ContinuousClock.now
            Self.settle(&state, at: now)
            state.paused = paused
            if paused {
                state.runningSince = nil
            } else if state.written > state.heardBefore {
                state.runningSince = now
            }
        }
    }

    /// As ALSA: no position while paused or not playing.
    func framesPlayed() -> Int64? {
        state.withLock { state in
            Self.settle(&state, at: .now)
            guard !state.paused, let since = state.runningSince, since <= .now,
                  let first = firstSound.withLock({ $0 }), .now >= first + positionUnknownFor else { return nil }
            return state.heardBefore
        }
    }

    /// Frames that have sounded so far.
    var heard: Int64 {
        state.withLock { state in
            Self.settle(&state, at: .now)
            return state.heardBefore
        }
    }
}
