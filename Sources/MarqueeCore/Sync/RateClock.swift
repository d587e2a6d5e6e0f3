import Synchronization

/// Playback time at a rate (AVPlayer.rate): a clock that runs `rate` times as fast as the clock
/// under it. Everything that paces presentation reads and sleeps on it, so the timeline, the frame
/// scheduler and pauses stay as they are at any rate; frames are dropped or held by the scheduler.
///
/// A rate change re-anchors it, so playback time never jumps: it goes on from where it was, at the
/// new pace. At rate 1 that was never changed it is the clock under it, exactly.
public final class RateClock: PlaybackClock {
    /// Playback time `playback` was clock time `base`; from there it runs at `rate`.
    private struct Anchor {
        var base: MediaTime
        var playback: MediaTime
        var rate: MediaTime
    }

    /// The slowest and fastest rates: AVPlayer's usual range, and what the pipeline can serve.
    public static let rates = 0.25...4.0

    public let base: PlaybackClock
    private let anchor: Mutex<Anchor>
    /// No rate was ever set: playback time is the clock under it, read without the lock (the
    /// present thread reads the clock many times a frame).
    private let isUntouched = Atomic<Bool>(true)

    public init(base: PlaybackClock) {
        self.base = base
        anchor = Mutex(Anchor(base: .zero, playback: .zero, rate: MediaTime(1, per: 1)))
    }

    /// The rate as an exact ratio: a Double is taken to the nearest thousandth.
    public static func ratio(_ rate: Double) -> MediaTime {
        MediaTime(Int64((rate * 1000).rounded()), per: 1000)
    }

    public var rate: Double {
        anchor.withLock { $0.rate.seconds }
    }

    /// From now on playback time runs at `rate` (clamped to `rates`), on from where it is.
    public func setRate(_ rate: Double) {
        let ratio = Self.ratio(min(max(rate, Self.rates.lowerBound), Self.rates.upperBound))
        let baseNow = base.now()
        anchor.withLock { anchor in
            let playback = Self.playbackTime(atBase: baseNow, anchor)
            anchor = Anchor(base: baseNow, playback: playback, rate: ratio)
        }
        isUntouched.store(false, ordering: .releasing)
    }

    public func now() -> MediaTime {
        if isUntouched.load(ordering: .acquiring) { return base.now() }
        let baseNow = base.now()
        return anchor.withLock { Self.playbackTime(atBase: baseNow, $0) }
    }

    /// Sleeps until the clock time that maps to `deadline`. Rounded to the nanosecond (an odd rate),
    /// that time is nudged on until playback time has reached the deadline.
    public func sleep(until deadline: MediaTime) {
        if isUntouched.load(ordering: .acquiring) { return base.sleep(until: deadline) }
        let current = anchor.withLock { $0 }
        let inverse = MediaTime(current.rate.denominator, per: current.rate.numerator)
        var baseDeadline = current.base + max(.zero, deadline - current.playback).multiplied(by: inverse, roundingUp: true)
        for _ in 0..<4 {
            base.sleep(until: baseDeadline)
            if now() >= deadline { return }
            baseDeadline += MediaTime(1, per: 1_000_000_000)
        }
    }

    private static func playbackTime(atBase baseNow: MediaTime, _ anchor: Anchor) -> MediaTime {
        if anchor.rate == MediaTime(1, per: 1) { return anchor.playback + (baseNow - anchor.base) }
        return anchor.playback + (baseNow - anchor.base).multiplied(by: anchor.rate)
    }
}
