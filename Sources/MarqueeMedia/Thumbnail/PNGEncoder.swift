import CFFmpeg
import MarqueeCore

/// Owns one opened PNG encoder (`AVCodecContext` of FFmpeg's `png` codec) for pictures of one size.
final class PNGEncoder {
    /// Owned and opened for the encoder's whole life; lend it to C calls only.
    private let pointer: UnsafeMutablePointer<AVCodecContext>
    let size: PixelSize
    /// The pixel layout handed to the encoder: 8-bit RGB, the plainest PNG every viewer reads.
    static let pixelFormat = AV_PIX_FMT_RGB24

    init(size: PixelSize) throws(FFmpegError) {
        try FFmpegLibrary.prepare(forNetwork: false)  // installs the quiet log before FFmpeg can speak
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG) else {
            throw FFmpegError(code: Self.encoderNotFound, operation: "avcodec_find_encoder(png)")
        }
        guard let pointer = avcodec_alloc_context3(codec) else { throw .outOfMemory("avcodec_alloc_context3(png)") }
        // From here on deinit frees the context, also when opening fails.
        self.pointer = pointer
        self.size = size
        pointer.pointee.width = Int32(size.width)
        pointer.pointee.height = Int32(size.height)
        pointer.pointee.pix_fmt = Self.pixelFormat
        pointer.pointee.time_base = AVRational(num: 1, den: 1)  // one picture: any time base will do
        try FFmpegLog.call("avcodec_open2(png)") { avcodec_open2(pointer, codec, nil) }
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&pointer)
    }

    /// The PNG file's bytes for `frame` (RGB24, this encoder's size).
    func encode(_ frame: Frame) throws(FFmpegError) -> [UInt8] {
        let context = pointer
        try FFmpegLog.call("avcodec_send_frame(png)") { avcodec_send_frame(context, frame.pointer) }
        // The end of input makes the encoder hand over everything it holds.
        try FFmpegLog.call("avcodec_send_frame(png, end)") { avcodec_send_frame(context, nil) }
        let packet = try Packet()
        var bytes: [UInt8] = []
        while true {
            let status = avcodec_receive_packet(context, packet.pointer)
            if status == marquee_averror_eof() { break }
            try checked(status, "avcodec_receive_packet(png)")
            if let data = packet.pointer.pointee.data {
                bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: packet.size))
            }
            packet.unref()
        }
        guard !bytes.isEmpty else {
            throw FFmpegError(code: marquee_averror_eof(), operation: "avcodec_receive_packet(png) gave no data")
        }
        return bytes
    }

    /// AVERROR_ENCODER_NOT_FOUND, which the shim does not carry: FFERRTAG(0xF8, 'E', 'N', 'C').
    private static let encoderNotFound: Int32 = -Int32(bitPattern: 0xF8 | UInt32(UInt8(ascii: "E")) << 8
        | UInt32(UInt8(ascii: "N")) << 16 | UInt32(UInt8(ascii: "C")) << 24)
}
