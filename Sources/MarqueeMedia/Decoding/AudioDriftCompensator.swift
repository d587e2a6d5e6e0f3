import CFFmpeg
import MarqueeCore

/// Owns one libswresample context (`SwrContext`) that keeps interleaved Float32 audio at its own
/// sample rate but plays it a little faster or slower (`swr_set_compensation`): how sound follows
/// a wall clock in frame-locked playback, where the device's crystal and the wall disagree by
/// tens of parts per million. Unlike atempo it changes the pitch with the pace; within the ±0.5 %
/// it is asked for, nobody hears that, and nothing is cut or repeated. Freed in `deinit`.
final class AudioDriftCompensator: AudioTimeStretcher {
    /// Input frames per output frame.
    let rate: Double
    let format: AudioFormat
    /// Owned; lent to C calls only.
    private let context: OpaquePointer
    /// The part of a frame of compensation not yet given (each call asks for a whole number).
    private var carry = 0.0

    /// The widest pace it takes: the follower never asks for more than 0.5 % either way.
    static let rates = 0.99...1.01

    init(rate: Double, format: AudioFormat) throws(FFmpegError) {
        let operation = "swr compensation \(rate) (\(format))"
        guard Self.rates.contains(rate) else {
            throw FFmpegError(code: marquee_averror(EINVAL), operation: "\(operation): outside 0.99 to 1.01")
        }
        var outputLayout = AVChannelLayout()
        av_channel_layout_default(&outputLayout, Int32(format.channelCount))
        var inputLayout = AVChannelLayout()
        av_channel_layout_default(&inputLayout, Int32(format.channelCount))
        var allocated: OpaquePointer?
        // swr_alloc_set_opts2 copies the layouts it is given before returning.
        let status = swr_alloc_set_opts2(&allocated, &outputLayout, AV_SAMPLE_FMT_FLT, Int32(format.sampleRate),
                                         &inputLayout, AV_SAMPLE_FMT_FLT, Int32(format.sampleRate), 0, nil)
        guard status >= 0 else { throw FFmpegError(code: status, operation: operation) }
        guard let allocated else { throw .outOfMemory(operation) }
        context = allocated
        self.rate = rate
        self.format = format
        try FFmpegLog.call("swr_init(\(operation))") { swr_init(context) }
    }

    deinit {
        var context: OpaquePointer? = context
        swr_free(&context)
    }

    func process(_ samples: [Float]) throws -> [Float] {
        let frames = samples.count / format.channelCount
        guard frames > 0 else { return [] }
        // Over the next `frames` output frames, `delta` more (or fewer) than the input: the pace,
        // given a call at a time with the fraction carried so the sum stays exact.
        let wanted = Double(frames) / rate - Double(frames) + carry
        let delta = wanted.rounded()
        carry = wanted - delta
        if delta != 0 {
            try checked(swr_set_compensation(context, Int32(delta), Int32(frames)), "swr_set_compensation(\(Int32(delta)), \(frames))")
        }
        return try samples.withUnsafeBufferPointer { input throws(FFmpegError) in
            var source = UnsafeRawPointer(input.baseAddress).map { $0.assumingMemoryBound(to: UInt8.self) }
            return try produce(inputCount: frames) { output, capacity in
                withUnsafeMutablePointer(to: &source) { pointer in
                    pointer.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 1) { swr_convert(context, output, capacity, $0, Int32(frames)) }
                }
            }
        }
    }

    func finish() throws -> [Float] {
        try SwrOutput.drain(context, channels: format.channelCount, operation: "swr_convert(compensation \(rate))")
    }

    /// A little over swr's own bound: the compensation set just before may add a frame or two to it.
    private func produce(inputCount: Int,
                         _ convert: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, Int32) -> Int32) throws(FFmpegError) -> [Float] {
        try SwrOutput.produce(context, channels: format.channelCount, inputCount: inputCount, margin: 64,
                              operation: "swr_convert(compensation \(rate))", convert)
    }
}

/// libswresample's compensation as the player's way to keep sound on the wall clock.
public struct FFmpegAudioDriftCompensation: AudioTimeStretching {
    public init() {}

    public var name: String { "libswresample compensation" }

    public func makeStretcher(rate: Double, format: AudioFormat) throws -> AudioTimeStretcher {
        try AudioDriftCompensator(rate: rate, format: format)
    }
}
