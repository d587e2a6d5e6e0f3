import CFFmpeg
import Foundation
import MarqueeCore

/// A Canvas as PNG with FFmpeg's PNG encoder: the canvas's XRGB8888 pixels are converted to RGB24
/// by libswscale, encoded, and the encoded packet is the PNG file's bytes.
public enum PNGWriter {
    /// The PNG file `canvas` makes, in memory (a thumbnail to save, a screenshot to send).
    public static func pngData(_ canvas: Canvas) throws(FFmpegError) -> [UInt8] {
        guard !canvas.size.isEmpty else {
            throw FFmpegError(code: marquee_averror(EINVAL), operation: "PNG of an empty \(canvas.size) picture")
        }
        let encoder = try ImageEncoder(size: canvas.size, format: .png)
        // Same size, so no resampling happens; point sampling just names the cheapest path.
        let frame = try CanvasFrame.make(of: canvas, size: canvas.size, format: ImageEncoder.pixelFormat(.png), flags: SWS_POINT)
        return try encoder.encode(frame)
    }

    /// Writes `pngData(canvas)` to `path`.
    public static func write(_ canvas: Canvas, to path: String) throws(ImageWriteError) {
        // Said here too, so the error names the file rather than an FFmpeg call.
        guard !canvas.size.isEmpty else {
            throw ImageWriteError(path: path, reason: "cannot write an empty \(canvas.size) picture")
        }
        let bytes: [UInt8]
        do throws(FFmpegError) {
            bytes = try pngData(canvas)
        } catch {
            throw ImageWriteError(path: path, reason: "PNG encoding failed: \(error)", underlying: error)
        }
        try save(bytes, to: path)
    }

    /// Writes the whole file or reports the system's reason (`Permission denied`, `No such file or directory`).
    private static func save(_ bytes: [UInt8], to path: String) throws(ImageWriteError) {
        guard let file = fopen(path, "wb") else {
            throw ImageWriteError(path: path, reason: String(cString: strerror(errno)))
        }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        let writeError = written == bytes.count ? 0 : errno
        let closeStatus = fclose(file)
        let closeError = closeStatus == 0 ? 0 : errno
        if writeError != 0 || closeError != 0 || written != bytes.count {
            let code = writeError != 0 ? writeError : closeError
            throw ImageWriteError(path: path, reason: code != 0 ? String(cString: strerror(code)) : "short write")
        }
    }
}
