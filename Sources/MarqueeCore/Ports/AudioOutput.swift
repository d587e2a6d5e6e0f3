/// Where decoded audio goes: an ALSA PCM, or the null output.
public protocol AudioOutput: AnyObject, Sendable {
    /// The layout it is fed in; the media backend converts to it.
    var format: AudioFormat { get }
    /// Writes interleaved frames in `format`. A device blocks while its buffer is full; the
    /// null output returns at once.
    func write(_ samples: [Float]) throws
    /// How many of the frames written so far have been heard by now. A device that plays in real
    /// time reports it (frames written − its delay), and the player's video then follows it: audio
    /// is the master clock. nil whenever sound is not flowing steadily (no device, not started yet,
    /// paused, underrun) or the output has no clock (the null output): the monotonic clock rules.
    func framesPlayed() -> Int64?
    /// Stops or resumes the sound where it is, so the master clock pauses with the picture.
    /// Callable from any thread.
    func setPaused(_ paused: Bool)
    /// Blocks until everything written has been heard (before the process exits).
    func drain()
    /// Lets the device go for good, after `drain` at the end of a run: a process that exits with
    /// it open never closes it (alsa-lib's `file` plugin then leaves its WAV header at 0 frames).
    /// Later writes are dropped.
    func close()
}

extension AudioOutput {
    public func framesPlayed() -> Int64? { nil }
    public func setPaused(_ paused: Bool) {}
    public func drain() {}
    public func close() {}
}
