import CFFmpeg
import MarqueeCore

/// Owns one opened still-image encoder (`AVCodecContext` of FFmpeg's `png` or `mjpeg` codec) for
/// pictures of one size: each picture sent alone makes one image file.
final class ImageEncoder {
    /// Owned and opened for the encoder's whole life; lend it to C calls only.
    private let pointer: UnsafeMutablePointer<AVCodecContext>
    let size: PixelSize
    let format: ImageFileFormat

    /// The JPEG quantiser (2 best .. 31 worst): 3 keeps text on screen readable in a thumbnail at
    /// about a tenth of the PNG's bytes.
    static let jpegQuality: Int32 = 3

    init(size: PixelSize, format: ImageFileFormat) throws(FFmpegError) {
        try FFmpegLibrary.prepare(forNetwork: false)  // installs the quiet log before FFmpeg can speak
        let name = Self.codecName(format)
        guard let codec = avcodec_find_encoder(format == .png ? AV_CODEC_ID_PNG : AV_CODEC_ID_MJPEG) else {
            throw FFmpegError(code: Self.encoderNotFound, operation: "avcodec_find_encoder(\(name))")
        }
        guard let pointer = avcodec_alloc_context3(codec) else { throw .outOfMemory("avcodec_alloc_context3(\(name))") }
        // From here on deinit frees the context, also when opening fails.
        self.pointer = pointer
        self.size = size
        self.format = format
        pointer.pointee.width = Int32(size.width)
        pointer.pointee.height = Int32(size.height)
        pointer.pointee.pix_fmt = Self.pixelFormat(format)
        pointer.pointee.time_base = AVRational(num: 1, den: 1)  // one picture: any time base will do
        if format == .jpeg {
            // A fixed quantiser, not a bit rate: one picture has no rate to keep.
            pointer.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
            pointer.pointee.global_quality = Self.jpegQuality * Int32(FF_QP2LAMBDA)
            pointer.pointee.color_range = AVCOL_RANGE_JPEG
        }
        try FFmpegLog.call("avcodec_open2(\(name))") { avcodec_open2(pointer, codec, nil) }
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&pointer)
    }

    /// The layout each encoder is handed: 8-bit RGB for PNG, the plainest every viewer reads;
    /// full-range 4:2:0 YUV for JPEG, what JFIF files hold.
    static func pixelFormat(_ format: ImageFileFormat) -> AVPixelFormat {
        format == .png ? AV_PIX_FMT_RGB24 : AV_PIX_FMT_YUVJ420P
    }

    static func codecName(_ format: ImageFileFormat) -> String {
        format == .png ? "png" : "mjpeg"
    }

    /// The image file's bytes for `frame` (in `pixelFormat(format)`, this encoder's size).
    func encode(_ frame: Frame) throws(FFmpegError) -> [UInt8] {
        let context = pointer
        let name = Self.codecName(format)
        if format == .jpeg { frame.pointer.pointee.quality = context.pointee.global_quality }
        try FFmpegLog.call("avcodec_send_frame(\(name))") { avcodec_send_frame(context, frame.pointer) }
        // The end of input makes the encoder hand over everything it holds.
        try FFmpegLog.call("avcodec_send_frame(\(name), end)") { avcodec_send_frame(context, nil) }
        let packet = try Packet()
        var bytes: [UInt8] = []
        while true {
            let status = avcodec_receive_packet(context, packet.pointer)
            if status == marquee_averror_eof() { break }
            try checked(status, "avcodec_receive_packet(\(name))")
            if let data = packet.pointer.pointee.data {
                bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: packet.size))
            }
            packet.unref()
        }
        guard !bytes.isEmpty else {
            throw FFmpegError(code: marquee_averror_eof(), operation: "avcodec_receive_packet(\(name)) gave no data")
        }
        return bytes
    }

    /// AVERROR_ENCODER_NOT_FOUND, which the shim does not carry: FFERRTAG(0xF8, 'E', 'N', 'C').
    private static let encoderNotFound: Int32 = -Int32(bitPattern: 0xF8 | UInt32(UInt8(ascii: "E")) << 8
        | UInt32(UInt8(ascii: "N")) << 16 | UInt32(UInt8(ascii: "C")) << 24)
}
