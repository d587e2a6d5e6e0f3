import CFFmpeg
import MarqueeCore

/// A decoded frame's planes seen from a crop's top-left corner, so that libswscale converts only the
/// crop without a copy: each plane's data pointer moves down and right by the crop origin, in that
/// plane's own units (chroma planes of 4:2:0 have half the rows and columns).
///
/// The pointers borrow the frame's buffers: use them only while the frame is alive and unchanged.
struct CroppedPlanes {
    let planes: [UnsafePointer<UInt8>?]
    let strides: [Int32]
    /// The crop actually taken: the one asked for, clipped to the frame, with its origin moved up and
    /// left onto the chroma grid (a chroma sample covers 2x2 luma pixels in 4:2:0; starting between
    /// two would shift colour against brightness). The far edges stay where they were asked to be.
    let crop: PixelRect
    let format: AVPixelFormat

    init(_ frame: UnsafePointer<AVFrame>, crop wanted: PixelRect) throws(FFmpegError) {
        format = AVPixelFormat(rawValue: frame.pointee.format)
        guard let descriptor = av_pix_fmt_desc_get(format),
              descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_HWACCEL) == 0 else {
            throw FFmpegError(code: marquee_averror(ENOSYS), operation: "av_pix_fmt_desc_get(\(ScalerContext.name(of: format)))")
        }
        let layout = descriptor.pointee
        let isBitstream = layout.flags & UInt64(AV_PIX_FMT_FLAG_BITSTREAM) != 0
        // Bit-packed formats (1-bit monochrome) can only start on a whole byte: 8 pixels.
        let columnGrid = max(1 << Int(layout.log2_chroma_w), isBitstream ? 8 : 1)
        let rowGrid = 1 << Int(layout.log2_chroma_h)

        let frameRect = PixelRect(x: 0, y: 0, width: Int(frame.pointee.width), height: Int(frame.pointee.height))
        let clipped = Self.intersection(wanted, frameRect)
        let x = clipped.x / columnGrid * columnGrid
        let y = clipped.y / rowGrid * rowGrid
        crop = PixelRect(x: x, y: y, width: clipped.maxX - x, height: clipped.maxY - y)

        let sourcePlanes = withUnsafeBytes(of: frame.pointee.data) { Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)) }
        let sourceStrides = withUnsafeBytes(of: frame.pointee.linesize) { Array($0.bindMemory(to: Int32.self)) }
        let components = withUnsafeBytes(of: layout.comp) { Array($0.bindMemory(to: AVComponentDescriptor.self)) }
            .prefix(Int(layout.nb_components))
        let isPaletted = layout.flags & UInt64(AV_PIX_FMT_FLAG_PAL) != 0

        var planes: [UnsafePointer<UInt8>?] = []
        for plane in 0..<4 {
            guard let base = sourcePlanes[plane] else {
                planes.append(nil)
                continue
            }
            // A palette is a table, not a picture: it is handed over as it is.
            guard !(isPaletted && plane == 1), let component = components.first(where: { Int($0.plane) == plane }) else {
                planes.append(UnsafePointer(base))
                continue
            }
            let isChroma = plane == 1 || plane == 2
            let row = y >> (isChroma ? Int(layout.log2_chroma_h) : 0)
            let column = x >> (isChroma ? Int(layout.log2_chroma_w) : 0)
            // `step` is bytes per pixel of this plane, or bits for bit-packed formats.
            let columnBytes = isBitstream ? column * Int(component.step) / 8 : column * Int(component.step)
            planes.append(UnsafePointer(base + row * Int(sourceStrides[plane]) + columnBytes))
        }
        self.planes = planes
        strides = Array(sourceStrides.prefix(4))
    }

    private static func intersection(_ a: PixelRect, _ b: PixelRect) -> PixelRect {
        let x0 = max(a.x, b.x), y0 = max(a.y, b.y)
        let x1 = min(a.maxX, b.maxX), y1 = min(a.maxY, b.maxY)
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
}
