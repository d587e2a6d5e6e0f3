import CFFmpeg
import MarqueeCore

/// Owns one opened decoder (`AVCodecContext`) for one stream of an `InputContainer`.
///
/// The loop is FFmpeg's send/receive: `send` packets, and after each one `receive` until it answers
/// `.needsInput`; at the end `sendEndOfStream` and `receive` until `.endOfStream`. After a seek,
/// `flush`. Not thread-safe: one decode thread uses it (FFmpeg's own worker threads are internal).
final class CodecContext {
    /// Owned and opened for the decoder's whole life; lend it to C calls only.
    let pointer: UnsafeMutablePointer<AVCodecContext>
    /// The stream's time base, which packets arrive in and frames' timestamps are in.
    let timeBase: AVRational
    let streamIndex: Int

    /// What a send did. A decoder with undelivered frames refuses input; that is flow control, not an error.
    enum SendOutcome: Equatable {
        case accepted
        /// Receive the pending frames first, then send the same packet again.
        case mustReceiveFirst
        /// The decoder was already sent the end of stream; `flush` to start again.
        case endOfStream
    }

    /// What a receive produced.
    enum ReceiveOutcome: Equatable {
        case frame
        /// Send another packet before asking again.
        case needsInput
        /// Every frame has been delivered after `sendEndOfStream`.
        case endOfStream
    }

    /// Opens the decoder for stream `streamIndex` of `container`. `threadCount` 0 lets FFmpeg pick
    /// (one more than the cores), with frame and slice threading as the codec supports.
    init(decoding streamIndex: Int, of container: InputContainer, threadCount: Int = 0) throws(FFmpegError) {
        let (codecID, timeBase) = container.withStream(at: streamIndex) { ($0.pointee.codecpar.pointee.codec_id, $0.pointee.time_base) }
        let codecName = String(cString: avcodec_get_name(codecID))
        guard let decoder = avcodec_find_decoder(codecID) else {
            throw FFmpegError(code: marquee_averror_decoder_not_found(), operation: "avcodec_find_decoder(\(codecName))")
        }
        guard let pointer = avcodec_alloc_context3(decoder) else { throw .outOfMemory("avcodec_alloc_context3(\(codecName))") }
        // From here on deinit frees the context, also when a later step throws.
        self.pointer = pointer
        self.timeBase = timeBase
        self.streamIndex = streamIndex

        try container.withStream(at: streamIndex) { (stream) throws(FFmpegError) -> Void in
            try checked(avcodec_parameters_to_context(pointer, stream.pointee.codecpar),
                        "avcodec_parameters_to_context(\(codecName))")
        }
        // Lets the decoder fill in frame timestamps and durations in the stream's units.
        pointer.pointee.pkt_timebase = timeBase
        pointer.pointee.thread_count = Int32(clamping: threadCount)
        try FFmpegLog.call("avcodec_open2(\(codecName))") { avcodec_open2(pointer, decoder, nil) }
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&pointer)
    }

    func send(_ packet: Packet) throws(FFmpegError) -> SendOutcome {
        try interpretSend(avcodec_send_packet(pointer, packet.pointer))
    }

    /// Tells the decoder no more packets follow, so it releases the frames it holds back (B-frame
    /// reordering, frame threads).
    func sendEndOfStream() throws(FFmpegError) -> SendOutcome {
        try interpretSend(avcodec_send_packet(pointer, nil))
    }

    /// Fills `frame` with the next decoded frame, replacing what it held.
    func receive(into frame: Frame) throws(FFmpegError) -> ReceiveOutcome {
        frame.unref()
        let code = avcodec_receive_frame(pointer, frame.pointer)
        switch code {
        case 0...: return .frame
        case marquee_averror_eagain(): return .needsInput
        case marquee_averror_eof(): return .endOfStream
        default: throw FFmpegError(code: code, operation: "avcodec_receive_frame")
        }
    }

    /// Drops buffered packets and frames and leaves end-of-stream: the decoder is ready for packets
    /// from a new position.
    func flush() {
        avcodec_flush_buffers(pointer)
    }

    private func interpretSend(_ code: Int32) throws(FFmpegError) -> SendOutcome {
        switch code {
        case 0...: .accepted
        case marquee_averror_eagain(): .mustReceiveFirst
        case marquee_averror_eof(): .endOfStream
        default: throw FFmpegError(code: code, operation: "avcodec_send_packet")
        }
    }
}
