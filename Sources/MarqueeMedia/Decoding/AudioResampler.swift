import CFFmpeg
import MarqueeCore

/// Owns one libswresample context (`SwrContext`): converts decoded audio of one input layout, rate
/// and sample format to an `AudioFormat` (interleaved Float32), freed in `deinit`.
///
/// A context is built for one input: a frame of another `Input` needs a new resampler (drain this
/// one first, or its held-back tail is lost).
///
/// Timing: libswresample lines output sample 0 up with input sample 0 and keeps no latency in the
/// signal, only in the buffer: samples its filter still needs look-ahead for stay inside (what
/// `swr_get_delay` counts) until more input or the NULL-input `drain()` pushes them out. So output
/// sample k of a run fed from one anchor sits exactly at anchor + k / output rate.
final class AudioResampler {
    /// What a decoded frame's samples are: a frame that differs needs another resampler.
    struct Input: Equatable {
        let sampleFormat: Int32
        let sampleRate: Int
        let channelCount: Int
        /// `AVChannelOrder` raw value; with the mask, tells 2.1 from 3.0 and front from side pairs.
        let channelOrder: UInt32
        let channelMask: UInt64

        init(_ frame: Frame) {
            let layout = frame.pointer.pointee.ch_layout
            sampleFormat = frame.format
            sampleRate = frame.sampleRate
            channelCount = Int(layout.nb_channels)
            channelOrder = layout.order.rawValue
            channelMask = layout.order == AV_CHANNEL_ORDER_NATIVE ? layout.u.mask : 0
        }
    }

    let input: Input
    let output: AudioFormat
    /// Owned, allocated and initialised for the resampler's whole life; lent to C calls only.
    private let context: OpaquePointer

    init(for frame: Frame, output: AudioFormat) throws(FFmpegError) {
        let input = Input(frame)
        let operation = "swr_alloc_set_opts2(\(input.channelCount) ch \(input.sampleRate) Hz → \(output))"
        guard input.sampleRate > 0, input.channelCount > 0 else {
            throw FFmpegError(code: marquee_averror(EINVAL), operation: "\(operation): the frame has no rate or channels")
        }
        // A shallow copy: swr_alloc_set_opts2 copies the layouts it is given before returning.
        var inputLayout = frame.pointer.pointee.ch_layout
        if inputLayout.order == AV_CHANNEL_ORDER_UNSPEC {
            // Raw PCM without a channel mask: read it as the usual layout of that many channels, so
            // swr can build a mixing matrix at all.
            av_channel_layout_default(&inputLayout, Int32(input.channelCount))
        }
        var outputLayout = AVChannelLayout()
        av_channel_layout_default(&outputLayout, Int32(output.channelCount))
        var allocated: OpaquePointer?
        let status = swr_alloc_set_opts2(&allocated, &outputLayout, AV_SAMPLE_FMT_FLT, Int32(output.sampleRate),
                                         &inputLayout, AVSampleFormat(rawValue: input.sampleFormat), Int32(input.sampleRate),
                                         0, nil)
        // On failure FFmpeg has freed the context and set the pointer to nil.
        guard status >= 0 else { throw FFmpegError(code: status, operation: operation) }
        guard let allocated else { throw .outOfMemory(operation) }
        // From here on deinit frees the context, also when a later step throws.
        context = allocated
        self.input = input
        self.output = output

        if input.channelCount == 1 && output.channelCount == 2 {
            // swr's default matrix puts mono in the centre, which stereo spreads at -3 dB per side; a
            // mono recording played on two speakers should sound as loud as it was recorded.
            let duplicate: [Double] = [1, 1]
            try checked(swr_set_matrix(context, duplicate, 1), "swr_set_matrix(mono → stereo)")
        }
        try FFmpegLog.call("swr_init(\(input.channelCount) ch \(input.sampleRate) Hz → \(output))") { swr_init(context) }
    }

    deinit {
        var context: OpaquePointer? = context
        swr_free(&context)
    }

    /// Converts the first `sampleCount` samples of `frame` (all of them unless its end is trimmed).
    /// May give fewer frames than the input holds: the filter keeps some back until more arrives.
    func convert(_ frame: Frame, sampleCount: Int) throws(FFmpegError) -> [Float] {
        precondition(Input(frame) == input, "a frame of another layout needs another resampler")
        precondition(sampleCount >= 0 && sampleCount <= frame.sampleCount, "cannot convert more samples than the frame has")
        guard let planes = frame.pointer.pointee.extended_data else {
            throw FFmpegError(code: marquee_averror(EINVAL), operation: "swr_convert: an audio frame without data")
        }
        let planeCount = av_sample_fmt_is_planar(AVSampleFormat(rawValue: input.sampleFormat)) != 0 ? input.channelCount : 1
        return try produce(inputCount: sampleCount) { output, capacity in
            planes.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: planeCount) { input in
                swr_convert(context, output, capacity, input, Int32(sampleCount))
            }
        }
    }

    /// Everything still held back, at the end of the input or before a jump.
    func drain() throws(FFmpegError) -> [Float] {
        try SwrOutput.drain(context, channels: output.channelCount, operation: self.operation)
    }

    private var operation: String { "swr_convert(\(input.channelCount) ch \(input.sampleRate) Hz → \(output))" }

    private func produce(inputCount: Int,
                         _ convert: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, Int32) -> Int32) throws(FFmpegError) -> [Float] {
        try SwrOutput.produce(context, channels: output.channelCount, inputCount: inputCount, operation: operation, convert)
    }
}
