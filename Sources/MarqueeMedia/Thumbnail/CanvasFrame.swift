import CFFmpeg
import MarqueeCore

/// A canvas (XRGB8888 in memory: BGR0 to FFmpeg) as an FFmpeg frame an encoder takes, converted
/// and, when the size differs, scaled by libswscale in the same pass.
enum CanvasFrame {
    /// `canvas` as a new frame of `size` in `format`. `flags` picks libswscale's filter: point
    /// sampling names the cheapest path when nothing is resized; bicubic (the ffmpeg CLI's
    /// default, its taps widened with the reduction) when a screen becomes a thumbnail.
    static func make(of canvas: Canvas, size: PixelSize, format: AVPixelFormat, flags: Int32) throws(FFmpegError) -> Frame {
        let frame = try Frame()
        frame.pointer.pointee.width = Int32(size.width)
        frame.pointer.pointee.height = Int32(size.height)
        frame.pointer.pointee.format = format.rawValue
        try checked(av_frame_get_buffer(frame.pointer, 0), "av_frame_get_buffer(\(ScalerContext.name(of: format)) \(size))")
        let destination = withUnsafeBytes(of: frame.pointer.pointee.data) {
            Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self).prefix(4))
        }
        let strides = withUnsafeBytes(of: frame.pointer.pointee.linesize) { Array($0.bindMemory(to: Int32.self).prefix(4)) }
        let scaler = ScalerContext(flags: flags)
        let conversion = ScalerContext.Conversion(sourceSize: canvas.size, sourceFormat: AV_PIX_FMT_BGR0, destinationSize: size,
                                                  destinationFormat: format, colorimetry: nil)
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
}
