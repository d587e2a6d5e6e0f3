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
        let encoder = try PNGEncoder(size: canvas.size)
        let frame = try rgbFrame(of: canvas)
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

    /// The canvas as an RGB24 frame the encoder accepts (it takes no 32-bit XRGB layout).
    private static func rgbFrame(of canvas: Canvas) throws(FFmpegError) -> Frame {
        let frame = try Frame()
        let size = canvas.size
        frame.pointer.pointee.width = Int32(size.width)
        frame.pointer.pointee.height = Int32(size.height)
        frame.pointer.pointee.format = PNGEncoder.pixelFormat.rawValue
        try checked(av_frame_get_buffer(frame.pointer, 0), "av_frame_get_buffer(rgb24 \(size))")
        let destination = withUnsafeBytes(of: frame.pointer.pointee.data) {
            Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self).prefix(4))
        }
        let strides = withUnsafeBytes(of: frame.pointer.pointee.linesize) { Array($0.bindMemory(to: Int32.self).prefix(4)) }
        // Same size, so no resampling happens; point sampling just names the cheapest path.
        let scaler = ScalerContext(flags: SWS_POINT)
        let conversion = ScalerContext.Conversion(sourceSize: size, sourceFormat: AV_PIX_FMT_BGR0, destinationSize: size,
                                                  destinationFormat: PNGEncoder.pixelFormat, colorimetry: nil)
        // withPixelBuffer rethrows untyped; a Result carries the FFmpeg error through it unchanged.
        let converted = canvas.withPixelBuffer { buffer in
            Result { () throws(FFmpegError) -> Void in
                let source = UnsafePointer(buffer.baseAddress.assumingMemoryBound(to: UInt8.self))
                try scaler.convert(conversion, source: ([source, nil, nil, nil], [Int32(buffer.bytesPerRow), 0, 0, 0]),
                                   destination: (destination, strides))
            }
        }
        try converted.get()
        return frame
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
