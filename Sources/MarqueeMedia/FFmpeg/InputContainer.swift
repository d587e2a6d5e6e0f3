import CFFmpeg
import MarqueeCore
import Synchronization

/// Owns one opened demuxer (`AVFormatContext`): opens a `MediaSource` under its protocol whitelist,
/// the demuxer whitelist and its deadline, finds stream info, reads packets, seeks, and closes in `deinit`.
///
/// Not thread-safe: one demux thread uses it at a time. Only `interrupt.cancel()` may be called from
/// another thread, to make a blocked call return.
final class InputContainer {
    let source: MediaSource
    /// Owned, non-nil and opened for the container's whole life; never handed out.
    private let context: UnsafeMutablePointer<AVFormatContext>
    /// The context's interrupt callback points at this object, so it must live as long as the context:
    /// being a stored property of the owner guarantees that.
    let interrupt: InterruptDeadline
    /// The deadline for each blocking call; `nil` for local files, which have none.
    private let timeout: Duration?
    /// The I/O context's `bytes_read` after the last packet read, for other threads to read.
    let bytesRead = ByteCounter()

    /// What a packet read produced. The end of the input is an expected outcome, not an error.
    enum ReadOutcome: Equatable {
        case packet
        case endOfFile
    }

    /// Opens and reads the container header (`avformat_open_input`). Remote sources get
    /// `options.networkTimeout` as both the socket silence limit and the deadline of the whole call.
    /// Pass your own `interrupt` to be able to `cancel()` the open itself from another thread.
    init(opening source: MediaSource, options: MediaOpenOptions = MediaOpenOptions(),
         interrupt: InterruptDeadline = InterruptDeadline()) throws(FFmpegError) {
        try FFmpegLibrary.prepare(forNetwork: source.isRemote)
        let timeout = source.isRemote ? options.networkTimeout : nil
        let protocolOptions = FFmpegOptions()
        for (key, value) in Self.protocolOptions(for: source, options: options) {
            try protocolOptions.set(key, value)
        }
        let opened = try Self.open(source, protocolOptions: protocolOptions, interrupt: interrupt, timeout: timeout)
        self.source = source
        self.context = opened
        self.interrupt = interrupt
        self.timeout = timeout
    }

    deinit {
        interrupt.unwatch()
        var context: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&context)
    }

    /// Reads a little of each stream to fill in what the header left out (codec parameters, frame
    /// rates, durations of raw streams). Needed before describing streams or opening decoders.
    ///
    /// - Parameter maxPixels: the decoders it opens refuse a picture with more pixels before they
    ///   allocate it (`max_pixels`), so a huge image is not decoded just to learn its size (an image
    ///   demuxer states none; the decoder reads it from the picture's header). Nil sets no limit.
    /// - Returns: what FFmpeg logged meanwhile (a refused picture's size is only said there).
    @discardableResult
    func findStreamInfo(maxPixels: Int? = nil) throws(FFmpegError) -> [String] {
        let context = context
        var perStream = [OpaquePointer?](repeating: nil, count: streamCount)
        defer { for index in perStream.indices { av_dict_free(&perStream[index]) } }
        if let maxPixels {
            for index in perStream.indices {
                try checked(av_dict_set(&perStream[index], "max_pixels", String(maxPixels), 0), "av_dict_set(max_pixels)")
            }
        }
        return try withDeadline { () throws(FFmpegError) -> [String] in
            let (code, log) = perStream.withUnsafeMutableBufferPointer { options in
                FFmpegLog.recording { avformat_find_stream_info(context, options.baseAddress) }
            }
            guard code >= 0 else { throw FFmpegError(code: code, operation: "avformat_find_stream_info", log: log) }
            return log
        }
    }

    /// Reads the next packet of any stream into `packet`, replacing what it held.
    ///
    /// A read the deadline (or a cancel) interrupted throws AVERROR_EXIT whatever FFmpeg made of the
    /// interruption: the HLS demuxer takes an interrupted segment read as the end of that segment and
    /// returns a packet of the next one, or reports the end of the stream, either of which would turn
    /// a stalled server into silently skipped or missing media.
    func readPacket(into packet: Packet) throws(FFmpegError) -> ReadOutcome {
        packet.unref()
        let context = context
        let interrupt = interrupt
        let (code, log, trail, interrupted) = withDeadline {
            let (code, log, trail) = FFmpegLog.recordingSegmentTrail(watching: { line in
                if Self.isRefusedRange(line) { interrupt.cancel() }
            }) { av_read_frame(context, packet.pointer) }
            return (code, log, trail, interrupt.hasFired)
        }
        lastReadTrail = trail
        if let io = context.pointee.pb { bytesRead.value.store(io.pointee.bytes_read, ordering: .relaxed) }
        if interrupted {
            packet.unref()
            // The server no longer has the rest: not a timeout, and nothing later will read.
            if log.contains(where: Self.isRefusedRange) {
                throw FFmpegError(code: marquee_averror_http_other_4xx(), operation: "av_read_frame", log: log)
            }
            throw FFmpegError(code: marquee_averror_exit(), operation: "av_read_frame", log: log)
        }
        if code == marquee_averror_eof() { return .endOfFile }
        guard code >= 0 else { throw FFmpegError(code: code, operation: "av_read_frame", log: log) }
        return .packet
    }

    /// What FFmpeg logged during the last `readPacket`, HLS segment requests included, oldest first
    /// (see `FFmpegLog.recordingSegmentTrail`): how a segment skipped on the way is noticed.
    private(set) var lastReadTrail: [String] = []

    /// A server that answers the reconnect of a dropped download with 416 (Range Not Satisfiable) no
    /// longer has the rest of the file (it was cut, or the server refuses to go on). FFmpeg 5.1 asks
    /// again and again with growing back-offs until `reconnect_delay_max` (4 s at a 5 s timeout), the
    /// picture frozen meanwhile; the read is interrupted at the first refusal instead (for good: the
    /// container has nothing more to read). A connection that merely dropped still reconnects.
    static func isRefusedRange(_ line: String) -> Bool {
        line.hasPrefix("HTTP error 416")
    }

    /// Moves reading to the last key frame at or before `time` (of the default stream), so decoding
    /// from there reaches `time` without missing references. Decoders must be flushed afterwards.
    func seek(toKeyFrameAtOrBefore time: MediaTime) throws(FFmpegError) {
        let target = time.timestamp(in: marquee_av_time_base_q())
        let context = context
        try withDeadline { () throws(FFmpegError) -> Void in
            try FFmpegLog.call("avformat_seek_file(\(time))") {
                avformat_seek_file(context, -1, .min, target, target, 0)
            }
        }
    }

    /// Moves reading back to the first key frame of the input, whose first timestamp is `start`.
    ///
    /// Not a seek to `start` itself: a transport stream seeks by position, taking any packet as a
    /// key frame, and a seek to the start time lands on the packet after the first key frame when
    /// B-frames put decode times before the start. Asked for a time an hour before the start, with
    /// the first key frame after it allowed, every demuxer lands on its first packet (its seek
    /// search starts there) or its first index entry. Decoders must be flushed afterwards.
    func seekToStart(_ start: MediaTime) throws(FFmpegError) {
        let target = (start - Self.wellBeforeStart).timestamp(in: marquee_av_time_base_q())
        let context = context
        try withDeadline { () throws(FFmpegError) -> Void in
            try FFmpegLog.call("avformat_seek_file(first key frame)") {
                avformat_seek_file(context, -1, .min, target, .max, 0)
            }
        }
    }

    static let wellBeforeStart = MediaTime(seconds: 3600)

    // MARK: Facts

    /// The demuxer's short name (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`, `png_pipe`, `hls`).
    var formatName: String {
        context.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "unknown"
    }

    /// The container's own duration; `nil` when it does not know (live streams, raw images).
    var duration: MediaTime? {
        MediaTime(timestamp: context.pointee.duration, timeBase: marquee_av_time_base_q())
    }

    /// The duration is a guess from the file size and bitrate (raw ADTS, MPEG audio without a
    /// header, some elementary streams), not something the container declares.
    var isDurationEstimatedFromBitrate: Bool {
        context.pointee.duration_estimation_method == AVFMT_DURATION_FROM_BITRATE
    }

    /// Whether the byte stream allows random access. Demuxers that own their I/O (HLS) have other
    /// ways to seek, so this alone does not decide whether an asset is seekable.
    var isByteSeekable: Bool {
        guard let io = context.pointee.pb else { return false }
        return io.pointee.seekable & AVIO_SEEKABLE_NORMAL != 0
    }

    /// The protocols this context (and every nested open it makes) may use, read back from FFmpeg.
    var protocolWhitelist: String? {
        context.pointee.protocol_whitelist.map { String(cString: $0) }
    }

    var streamCount: Int { Int(context.pointee.nb_streams) }

    /// Every stream, described in Swift values.
    var streams: [StreamDescription] {
        (0..<streamCount).map { index in withStream(at: index) { StreamDescription($0) } }
    }

    /// Lends stream `index` to `body`. The pointer belongs to the context: it must not escape `body`.
    func withStream<T, E: Error>(at index: Int, _ body: (UnsafePointer<AVStream>) throws(E) -> T) throws(E) -> T {
        precondition(index >= 0 && index < streamCount, "stream \(index) is not in 0..<\(streamCount)")
        guard let stream = context.pointee.streams[index] else {
            preconditionFailure("FFmpeg reported \(streamCount) streams but stream \(index) is null")
        }
        return try body(stream)
    }

    /// Records the picture size of stream `index` where FFmpeg could not (see `StillImageRule`), so
    /// every later reader of the stream's parameters, decoders included, sees it.
    func setPictureSize(_ size: PixelSize, ofStream index: Int) {
        withStream(at: index) { stream in
            stream.pointee.codecpar.pointee.width = Int32(size.width)
            stream.pointee.codecpar.pointee.height = Int32(size.height)
        }
    }

    /// The stream FFmpeg would pick for `type` (av_find_best_stream: the default disposition, the most
    /// frames, the highest resolution or channel count); `nil` when there is none.
    func bestStreamIndex(of type: AVMediaType) -> Int? {
        let index = av_find_best_stream(context, type, -1, -1, nil, 0)
        // Negative is AVERROR_STREAM_NOT_FOUND, the expected answer for an audio-only file asked for video.
        return index >= 0 ? Int(index) : nil
    }

    /// The sample aspect ratio to display stream `index` with, from the stream or its codec
    /// parameters (av_guess_sample_aspect_ratio); 0:1 when neither says.
    func sampleAspectRatio(ofStream index: Int) -> AVRational {
        let context = context
        return withStream(at: index) { stream in
            av_guess_sample_aspect_ratio(context, UnsafeMutablePointer(mutating: stream), nil)
        }
    }

    // MARK: Opening

    /// Options every nested open inherits through the context (HLS copies `rw_timeout` and
    /// `user_agent` to its segment requests; the interrupt callback and whitelist travel with the context).
    private static func protocolOptions(for source: MediaSource, options: MediaOpenOptions) -> [(String, String)] {
        guard source.isRemote else { return [] }
        let microseconds = String(Self.microseconds(in: options.networkTimeout))
        return [
            ("rw_timeout", microseconds),  // any protocol: silence on an open connection
            ("timeout", microseconds),  // tcp: connect and socket I/O
            ("user_agent", options.userAgent),
            ("reconnect", "1"),  // a dropped long download resumes instead of ending the item
            ("reconnect_delay_max", String(max(1, options.networkTimeout.components.seconds))),
        ]
    }

    /// Allocates a context, installs the interrupt callback and the protocol and demuxer whitelists,
    /// and opens the input.
    /// Until `avformat_open_input` succeeds the context is this function's to free.
    private static func open(_ source: MediaSource, protocolOptions: FFmpegOptions, interrupt: InterruptDeadline,
                             timeout: Duration?) throws(FFmpegError) -> UnsafeMutablePointer<AVFormatContext> {
        guard let allocated = avformat_alloc_context() else { throw .outOfMemory("avformat_alloc_context") }
        allocated.pointee.interrupt_callback = interrupt.callback
        // Set on the context rather than passed among the open options, so that it cannot be silently
        // left unconsumed: if FFmpeg refuses it, nothing is opened at all.
        for (option, value) in [("protocol_whitelist", source.protocolWhitelist), ("format_whitelist", DemuxerWhitelist.optionValue)] {
            let whitelisted = av_opt_set(UnsafeMutableRawPointer(allocated), option, value, 0)
            guard whitelisted >= 0 else {
                avformat_free_context(allocated)
                throw FFmpegError(code: whitelisted, operation: "av_opt_set(\(option))")
            }
        }
        var context: UnsafeMutablePointer<AVFormatContext>? = allocated
        // Bytes of the header count as progress too: a slow server is given time as long as it sends.
        interrupt.watch(allocated)
        interrupt.arm(for: timeout)
        let (status, log, redirect) = FFmpegLog.recordingRedirects {
            protocolOptions.withPointer { avformat_open_input(&context, source.ffmpegURL, nil, $0) }
        }
        interrupt.disarm()
        // On failure FFmpeg has already freed the context and set the pointer to nil.
        guard status >= 0 else {
            interrupt.unwatch()
            throw FFmpegError(code: status, operation: "avformat_open_input", log: log, redirect: redirect)
        }
        guard let context else { preconditionFailure("avformat_open_input succeeded without a context") }
        return context
    }

    private func withDeadline<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        interrupt.arm(for: timeout)
        defer { interrupt.disarm() }
        return try body()
    }

    private static func microseconds(in duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}

/// A count one thread writes and any thread reads.
final class ByteCounter: Sendable {
    let value = Atomic<Int64>(0)
}
