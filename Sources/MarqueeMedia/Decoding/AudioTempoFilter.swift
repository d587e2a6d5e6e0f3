import CFFmpeg
import MarqueeCore

/// Owns one libavfilter graph (`AVFilterGraph`): abuffer → atempo (one or two) → aformat →
/// abuffersink, which changes the pace of interleaved Float32 audio without changing its pitch.
/// Freed in `deinit`; the filter contexts belong to the graph. libavfilter is opened by the first
/// one made (`LibAVFilter`): a player that stays at rate 1 never maps it.
///
/// atempo takes 0.5 to 100 per instance, so rates under 0.5 chain two (0.25 = 0.5 × 0.5). It keeps
/// its output lined up with its input (output frame k stands for input frame k × rate); what it
/// holds back to fill its window comes out with later input or at `finish()`.
final class AudioTempoFilter: AudioTimeStretcher {
    let rate: Double
    let format: AudioFormat
    private let library: LibAVFilter
    /// Owned; lent to C calls only.
    private let graph: UnsafeMutablePointer<AVFilterGraph>
    /// Owned by `graph`.
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>
    /// Reused for every input and output frame.
    private let frame: Frame
    private var framesIn: Int64 = 0
    private var isFinished = false

    /// The atempo factors for `rate`: each within atempo's 0.5...100.
    static func factors(for rate: Double) -> [Double] {
        rate >= 0.5 ? [rate] : [0.5, rate / 0.5]
    }

    init(rate: Double, format: AudioFormat) throws(FFmpegError) {
        let operation = "atempo \(rate) (\(format))"
        guard rate >= 0.25, rate <= 4 else {
            throw FFmpegError(code: marquee_averror(EINVAL), operation: "\(operation): rate outside 0.25 to 4")
        }
        let library = try LibAVFilter.get()
        guard let graph = library.graphAlloc() else { throw .outOfMemory(operation) }
        self.library = library
        self.graph = graph
        self.rate = rate
        self.format = format
        frame = try Frame()

        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(format.channelCount))
        defer { av_channel_layout_uninit(&layout) }
        var name = [CChar](repeating: 0, count: 64)
        _ = av_channel_layout_describe(&layout, &name, name.count)
        let layoutName = String(nulTerminated: name)

        // Each context is linked to the one before it as it is made: the graph owns them all.
        func make(_ filter: String, _ label: String, _ arguments: String?) throws(FFmpegError) -> UnsafeMutablePointer<AVFilterContext> {
            guard let definition = library.getByName(filter) else {
                throw FFmpegError(code: marquee_averror(ENOSYS), operation: "\(operation): this FFmpeg has no \(filter) filter")
            }
            var context: UnsafeMutablePointer<AVFilterContext>?
            try checked(library.graphCreateFilter(&context, definition, label, arguments, nil, graph),
                        "avfilter_graph_create_filter(\(filter)=\(arguments ?? ""))")
            guard let context else { throw .outOfMemory(operation) }
            return context
        }
        source = try make("abuffer", "in",
                          "sample_rate=\(format.sampleRate):sample_fmt=flt:channel_layout=\(layoutName):time_base=1/\(format.sampleRate)")
        sink = try make("abuffersink", "out", nil)
        var previous = source
        for (index, factor) in Self.factors(for: rate).enumerated() {
            let tempo = try make("atempo", "tempo\(index)", "tempo=\(factor)")
            try checked(library.link(previous, 0, tempo, 0), "avfilter_link(atempo)")
            previous = tempo
        }
        // atempo could negotiate another sample format; the audio thread writes Float32 only.
        let keep = try make("aformat", "keep", "sample_fmts=flt:sample_rates=\(format.sampleRate):channel_layouts=\(layoutName)")
        try checked(library.link(previous, 0, keep, 0), "avfilter_link(aformat)")
        try checked(library.link(keep, 0, sink, 0), "avfilter_link(abuffersink)")
        try checked(library.graphConfig(graph, nil), "avfilter_graph_config(\(operation))")
    }

    deinit {
        var graph: UnsafeMutablePointer<AVFilterGraph>? = graph
        library.graphFree(&graph)
    }

    func process(_ samples: [Float]) throws -> [Float] {
        let channels = format.channelCount
        let count = samples.count / channels
        guard count > 0, !isFinished else { return [] }
        av_frame_unref(frame.pointer)
        let raw = frame.pointer
        raw.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
        raw.pointee.sample_rate = Int32(format.sampleRate)
        raw.pointee.nb_samples = Int32(count)
        av_channel_layout_default(&raw.pointee.ch_layout, Int32(channels))
        raw.pointee.pts = framesIn
        try checked(av_frame_get_buffer(raw, 0), "av_frame_get_buffer(atempo input)")
        samples.withUnsafeBytes { bytes in
            UnsafeMutableRawPointer(raw.pointee.data.0)?.copyMemory(from: bytes.baseAddress!, byteCount: count * channels * MemoryLayout<Float>.size)
        }
        framesIn += Int64(count)
        try checked(library.buffersrcAddFrameFlags(source, raw, 0), "av_buffersrc_add_frame(atempo)")
        return try drain()
    }

    func finish() throws -> [Float] {
        guard !isFinished else { return [] }
        isFinished = true
        try checked(library.buffersrcAddFrameFlags(source, nil, 0), "av_buffersrc_add_frame(atempo end)")
        return try drain()
    }

    /// Every frame the sink has ready now.
    private func drain() throws -> [Float] {
        var output: [Float] = []
        let channels = format.channelCount
        while true {
            av_frame_unref(frame.pointer)
            let status = library.buffersinkGetFrame(sink, frame.pointer)
            if status == marquee_averror_eagain() || status == marquee_averror_eof() { break }
            try checked(status, "av_buffersink_get_frame(atempo)")
            let count = Int(frame.pointer.pointee.nb_samples) * channels
            guard count > 0, let data = frame.pointer.pointee.data.0 else { continue }
            data.withMemoryRebound(to: Float.self, capacity: count) { output.append(contentsOf: UnsafeBufferPointer(start: $0, count: count)) }
        }
        av_frame_unref(frame.pointer)
        return output
    }
}

/// libavfilter's atempo as the player's time-stretcher.
public struct FFmpegAudioTimeStretching: AudioTimeStretching {
    public init() {}

    public var name: String { "libavfilter atempo" }

    public func makeStretcher(rate: Double, format: AudioFormat) throws -> AudioTimeStretcher {
        try AudioTempoFilter(rate: rate, format: format)
    }
}
