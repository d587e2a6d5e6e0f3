/// Where decoded audio goes: an ALSA PCM, or the null output.
public protocol AudioOutput: AnyObject, Sendable {
    /// The layout it is fed in; the media backend converts to it.
    var format: AudioFormat { get }
    /// Writes interleaved frames in `format`. A device blocks while its buffer is full; the
    /// null output returns at once.
    func write(_ samples: [Float]) throws
}
