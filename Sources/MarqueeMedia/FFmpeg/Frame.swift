import CFFmpeg
import MarqueeCore

/// Owns one `AVFrame`: a decoded picture or block of audio samples.
///
/// `CodecContext.receive(into:)` unreferences the previous contents before filling it, so one frame
/// can be reused for a whole decode loop. The data planes belong to the frame's buffers: copy out (or
/// convert with swscale/swresample) before the next receive.
final class Frame {
    /// Owned; valid for the frame's whole life. Lend it to C calls only, never store it elsewhere.
    let pointer: UnsafeMutablePointer<AVFrame>

    init() throws(FFmpegError) {
        guard let pointer = av_frame_alloc() else { throw .outOfMemory("av_frame_alloc") }
        self.pointer = pointer
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&pointer)
    }

    /// Releases the buffers and resets the fields; the frame is reusable.
    func unref() {
        av_frame_unref(pointer)
    }

    /// The decoder's best guess at the presentation time (pts, else one reconstructed from dts),
    /// in the time base of the stream it was decoded from; `nil` when it has none.
    func presentationTime(timeBase: AVRational) -> MediaTime? {
        MediaTime(timestamp: pointer.pointee.best_effort_timestamp, timeBase: timeBase)
    }

    /// `nil` when the decoder does not know it. (FFmpeg 5.1 calls the field `pkt_duration`; 6.0 renames it.)
    func duration(timeBase: AVRational) -> MediaTime? {
        pointer.pointee.pkt_duration > 0 ? MediaTime(timestamp: pointer.pointee.pkt_duration, timeBase: timeBase) : nil
    }

    /// Video: the picture size in pixels (`nil` for audio frames).
    var pictureSize: PixelSize? {
        let frame = pointer.pointee
        return frame.width > 0 && frame.height > 0 ? PixelSize(width: Int(frame.width), height: Int(frame.height)) : nil
    }

    /// Video: an `AVPixelFormat` raw value; audio: an `AVSampleFormat` raw value; -1 when unset.
    var format: Int32 { pointer.pointee.format }

    /// Audio: samples per channel in this frame.
    var sampleCount: Int { Int(pointer.pointee.nb_samples) }

    var sampleRate: Int { Int(pointer.pointee.sample_rate) }

    var channelCount: Int { Int(pointer.pointee.ch_layout.nb_channels) }

    /// Video: the sample aspect ratio this frame says, 0:1 when unknown (FFmpeg's convention).
    var sampleAspectRatio: AVRational { pointer.pointee.sample_aspect_ratio }

    var isKeyFrame: Bool { pointer.pointee.key_frame != 0 }

    /// The bytes of the buffers the frame references (its planes, from the decoder's pool): what
    /// holding it keeps from being reused. A 1920x1080 4:2:0 picture from H.264 holds about 3.1 MB.
    var bufferByteCount: Int {
        var total = 0
        withUnsafeBytes(of: pointer.pointee.buf) { raw in
            for buffer in raw.bindMemory(to: UnsafeMutablePointer<AVBufferRef>?.self) {
                total += buffer.map { Int($0.pointee.size) } ?? 0
            }
        }
        let extended = pointer.pointee.extended_buf
        for index in 0..<Int(pointer.pointee.nb_extended_buf) {
            total += extended?[index].map { Int($0.pointee.size) } ?? 0
        }
        return total
    }
}
