import Synchronization

/// `--clock fast`: a clock that jumps to whatever time is waited for, so playback runs as fast as
/// the pipeline allows while every frame keeps its exact presentation time. Tests and soak runs
/// get deterministic traces of hours of playback in seconds.
public final class VirtualClock: PlaybackClock {
    private let current = Mutex(MediaTime.zero)

    public init() {}

    public func now() -> MediaTime {
        current.withLock { $0 }
    }

    public func sleep(until deadline: MediaTime) {
        current.withLock { $0 = max($0, deadline) }
    }

    /// Moves time on by `interval` (for work that takes time on a real clock, such as a retry back-off).
    public func advance(by interval: MediaTime) {
        current.withLock { $0 += interval }
    }
}
