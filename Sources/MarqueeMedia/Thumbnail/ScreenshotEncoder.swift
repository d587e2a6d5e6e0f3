import CFFmpeg
import MarqueeCore

/// A picture of the screen as a JPEG or PNG file in memory, scaled down to a width first: what
/// `screenshot` replies carry and what MQTT's `TOPIC/screenshot` publishes. libswscale scales and
/// converts in one pass, FFmpeg's `mjpeg` or `png` encoder makes the file.
public enum ScreenshotEncoder {
    /// `canvas` at most `width` pixels across (nil: its own size; never enlarged), its shape kept,
    /// as a `format` file.
    public static func encode(_ canvas: Canvas, width: Int?, format: ImageFileFormat) throws(FFmpegError) -> EncodedImage {
        guard !canvas.size.isEmpty else {
            throw FFmpegError(code: marquee_averror(EINVAL), operation: "\(format.rawValue) of an empty \(canvas.size) picture")
        }
        let size = width.map { canvas.size.thumbnail(width: $0) } ?? canvas.size
        let encoder = try ImageEncoder(size: size, format: format)
        let flags = size == canvas.size && format == .png ? SWS_POINT : ScalerContext.defaultFlags
        let frame = try CanvasFrame.make(of: canvas, size: size, format: ImageEncoder.pixelFormat(format), flags: flags)
        return EncodedImage(bytes: try encoder.encode(frame), size: size, format: format)
    }
}
