/// The time that paces presentation. Real-time threads block in `sleep(until:)`.
public protocol PlaybackClock: AnyObject, Sendable {
    /// Time since the clock started.
    func now() -> MediaTime
    /// Blocks the calling (real-time) thread until `now() >= deadline`.
    func sleep(until deadline: MediaTime)
}
