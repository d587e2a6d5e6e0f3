import CFFmpeg
import MarqueeCore
import Synchronization

/// Converts decoded frames into XRGB8888 pixel buffers: crop, scale, colour conversion, quarter turns
/// and the background around the picture.
///
/// One per reader, shared by all of its pictures, so the libswscale context is built once per
/// stream rather than once per frame. Pictures are drawn on the present thread while the decode
/// thread makes new ones (and a thumbnail or bench may draw on yet another), hence the lock.
final class PictureScaler: Sendable {
    private struct State {
        let context: ScalerContext
        /// Where a turned picture is scaled before it is copied turned into place; kept between frames.
        var scratch: [UInt32] = []
    }

    private let state: Mutex<State>

    init() {
        state = Mutex(State(context: ScalerContext()))
    }

    /// Draws `frame` into `buffer` as `placement` says and paints the rest of the buffer `background`.
    /// - Parameter layoutSize: the picture size `placement` was computed for; a frame of another size
    ///   (the stream changed resolution) has its crop mapped onto its own size, so it fills the same place.
    func draw(_ frame: Frame, layoutSize: PixelSize?, into buffer: PixelBuffer, placement: VideoPlacement,
              background: RGBColor) throws(FFmpegError) {
        let destination = placement.destination
        guard PixelRect(size: buffer.size).contains(destination) else {
            throw FFmpegError(code: marquee_averror(EINVAL),
                              operation: "draw into \(destination) of a \(buffer.size) buffer (outside it)")
        }
        buffer.fill(outside: destination, with: background)
        guard !destination.isEmpty else { return }

        let frameSize = frame.pictureSize ?? PixelSize(width: 0, height: 0)
        let crop = Self.crop(placement.sourceCrop, laidOutFor: layoutSize ?? frameSize, on: frameSize)
        let source = try CroppedPlanes(UnsafePointer(frame.pointer), crop: crop)
        guard !source.crop.isEmpty else {
            buffer.fill(destination, with: background)
            return
        }
        // Scaled upright first: the turn is a plain copy afterwards.
        let unturned = destination.size.rotated(by: placement.rotation.inverse)
        let conversion = ScalerContext.Conversion(
            sourceSize: source.crop.size, sourceFormat: source.format,
            destinationSize: unturned, destinationFormat: AV_PIX_FMT_BGR0,
            colorimetry: FrameColorimetry(UnsafePointer(frame.pointer)))
        try state.withLock { (state: inout State) throws(FFmpegError) -> Void in
            if placement.rotation == .none && !Self.writesPastRows(width: unturned.width) {
                let corner = buffer.baseAddress + destination.y * buffer.bytesPerRow + destination.x * 4
                try state.context.convert(conversion, source: (source.planes, source.strides),
                                          destination: ([corner.assumingMemoryBound(to: UInt8.self), nil, nil, nil],
                                                        [Int32(buffer.bytesPerRow), 0, 0, 0]))
                return
            }
            // Rows a whole number of blocks long, and room after the last: what the scaler writes
            // past a row's end lands in the scratch, never in the buffer's next pixels or past its end.
            let rowPixels = Self.paddedRow(unturned.width)
            let pixelCount = rowPixels * unturned.height + Self.blockPixels
            if state.scratch.count < pixelCount {
                state.scratch = Array(repeating: 0, count: pixelCount)
            }
            try state.scratch.withUnsafeMutableBufferPointer { (scratch) throws(FFmpegError) -> Void in
                let start = UnsafeMutableRawPointer(scratch.baseAddress!).assumingMemoryBound(to: UInt8.self)
                try state.context.convert(conversion, source: (source.planes, source.strides),
                                          destination: ([start, nil, nil, nil], [Int32(rowPixels * 4), 0, 0, 0]))
                QuarterTurn.copy(UnsafeBufferPointer(scratch), size: unturned, rowPixels: rowPixels, turned: placement.rotation,
                                 into: buffer, at: destination)
            }
        }
    }

    /// libswscale's SIMD converters write whole blocks of pixels: into a row whose width is not a
    /// multiple of the block they write past its end (over the pixels beside the picture, and past
    /// the buffer's end on its last row: a 200-pixel-wide picture on a 200-pixel-wide screen
    /// corrupted the heap). Such widths go through a padded scratch, then are copied into place.
    static let blockPixels = 16

    static func writesPastRows(width: Int) -> Bool {
        width % blockPixels != 0
    }

    static func paddedRow(_ width: Int) -> Int {
        (width + blockPixels - 1) / blockPixels * blockPixels
    }

    /// `crop` was chosen for a picture of `layoutSize`; the same region of a picture of `frameSize`.
    static func crop(_ crop: PixelRect, laidOutFor layoutSize: PixelSize, on frameSize: PixelSize) -> PixelRect {
        guard layoutSize != frameSize, !layoutSize.isEmpty else { return crop }
        func map(_ value: Int, _ from: Int, _ to: Int) -> Int { (2 * value * to + from) / (2 * from) }
        let x = map(crop.x, layoutSize.width, frameSize.width)
        let y = map(crop.y, layoutSize.height, frameSize.height)
        return PixelRect(x: x, y: y,
                         width: map(crop.maxX, layoutSize.width, frameSize.width) - x,
                         height: map(crop.maxY, layoutSize.height, frameSize.height) - y)
    }
}
