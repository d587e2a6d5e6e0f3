import CFFmpeg
import MarqueeCore

/// Owns one `AVPacket`: a compressed chunk of one stream, as the demuxer hands it over.
///
/// Allocate one per demux loop and reuse it: `InputContainer.readPacket(into:)` unreferences the
/// previous payload before filling it again, and a decoder copies or references what it keeps.
final class Packet {
    /// Owned; valid for the packet's whole life. Lend it to C calls only, never store it elsewhere.
    let pointer: UnsafeMutablePointer<AVPacket>

    init() throws(FFmpegError) {
        guard let pointer = av_packet_alloc() else { throw .outOfMemory("av_packet_alloc") }
        self.pointer = pointer
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&pointer)
    }

    /// Drops the payload (returning its buffer to FFmpeg) and resets the fields; the packet is reusable.
    func unref() {
        av_packet_unref(pointer)
    }

    /// Takes over `other`'s payload and fields (av_packet_move_ref), dropping what this packet held;
    /// `other` is left blank. The payload has one owner at a time: whichever packet holds it.
    func take(from other: Packet) {
        av_packet_unref(pointer)
        av_packet_move_ref(pointer, other.pointer)
    }

    /// Index of the stream in its `InputContainer`.
    var streamIndex: Int { Int(pointer.pointee.stream_index) }

    /// Presentation and decode timestamps in the stream's time base; `nil` when the container does not say.
    func presentationTime(timeBase: AVRational) -> MediaTime? {
        MediaTime(timestamp: pointer.pointee.pts, timeBase: timeBase)
    }

    func decodeTime(timeBase: AVRational) -> MediaTime? {
        MediaTime(timestamp: pointer.pointee.dts, timeBase: timeBase)
    }

    /// `nil` when zero or unknown: many demuxers leave it 0 when they cannot tell.
    func duration(timeBase: AVRational) -> MediaTime? {
        pointer.pointee.duration > 0 ? MediaTime(timestamp: pointer.pointee.duration, timeBase: timeBase) : nil
    }

    /// The decode timestamp, else the presentation one, in the stream's ticks; nil when neither is known.
    var timestamp: Int64? {
        let nothing = marquee_av_nopts_value()
        if pointer.pointee.dts != nothing { return pointer.pointee.dts }
        return pointer.pointee.pts != nothing ? pointer.pointee.pts : nil
    }

    /// Moves the known timestamps by `ticks` of the stream's time base.
    func shiftTimestamps(by ticks: Int64) {
        let nothing = marquee_av_nopts_value()
        if pointer.pointee.pts != nothing { pointer.pointee.pts += ticks }
        if pointer.pointee.dts != nothing { pointer.pointee.dts += ticks }
    }

    var isKeyFrame: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }

    /// Payload size in bytes.
    var size: Int { Int(pointer.pointee.size) }
}
