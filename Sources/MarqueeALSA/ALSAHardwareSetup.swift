/// What the device agreed to in snd_pcm_hw_params and snd_pcm_sw_params.
public struct ALSAHardwareSetup: Sendable, Equatable, CustomStringConvertible {
    public var sampleFormat: ALSASampleFormat
    public var sampleRate: Int
    public var channelCount: Int
    public var bufferFrames: Int
    public var periodFrames: Int
    /// snd_pcm_pause works; otherwise pause drops the buffer and writes it again on resume.
    public var canPause: Bool
    /// The sound card whose clock plays the PCM (snd_pcm_info); nil for a PCM that no card plays,
    /// such as the `null` plugin, which takes any amount at once and keeps no time.
    public var soundCard: Int? = nil

    public var bytesPerFrame: Int { sampleFormat.bytesPerSample * channelCount }

    /// `48000 Hz 2 ch FLOAT_LE, buffer 4800 (100 ms), period 1200 (25 ms)`.
    public var description: String {
        func milliseconds(_ frames: Int) -> Int { sampleRate > 0 ? frames * 1000 / sampleRate : 0 }
        return "\(sampleRate) Hz \(channelCount) ch \(sampleFormat.rawValue), buffer \(bufferFrames) (\(milliseconds(bufferFrames)) ms), "
            + "period \(periodFrames) (\(milliseconds(periodFrames)) ms)\(canPause ? "" : ", no hardware pause")"
    }
}
