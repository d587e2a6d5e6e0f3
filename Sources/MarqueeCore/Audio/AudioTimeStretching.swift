/// Changes the pace of sound without changing its pitch (a playback rate other than 1): what the
/// media backend offers the audio thread, which never sees the library that does it.
public protocol AudioTimeStretching: Sendable {
    /// A stretcher for interleaved Float32 audio in `format` played at `rate` (0.25 to 4): it
    /// makes about 1/rate as many frames as it is given.
    func makeStretcher(rate: Double, format: AudioFormat) throws -> AudioTimeStretcher
    /// How it is done, for the log and the status (e.g. "libavfilter atempo").
    var name: String { get }
}

/// One run of stretched audio. Output frame k of a run stands for input frame k × rate: what it
/// holds back to fill its window comes out later, not shifted, so a clock can map device frames
/// back to media frames from the run's first frame.
public protocol AudioTimeStretcher: AnyObject {
    /// Takes interleaved frames and returns the stretched frames ready so far (maybe none).
    func process(_ samples: [Float]) throws -> [Float]
    /// Ends the run: returns what it still holds. The stretcher takes nothing after this.
    func finish() throws -> [Float]
}
