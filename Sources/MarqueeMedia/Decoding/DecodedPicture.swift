import MarqueeCore

/// One decoded video frame, handed to the engine: it owns its FFmpeg frame (the decoder's buffers
/// stay referenced until the picture is released, then go back to the decoder's pool) and converts
/// it straight into an output's buffer when drawn.
final class DecodedPicture: VideoPicture, @unchecked Sendable {
    // @unchecked: the frame is written once, by the decoder, before the picture exists, and only read
    // afterwards (by `draw` on the present thread); the shared scaler does its own locking.
    let pts: MediaTime
    private let frame: Frame
    private let scaler: PictureScaler
    /// The coded size the engine lays pictures out for (the asset's), to map crops of a frame whose
    /// size differs.
    private let layoutSize: PixelSize?

    init(frame: Frame, pts: MediaTime, scaler: PictureScaler, layoutSize: PixelSize?) {
        self.frame = frame
        self.pts = pts
        self.scaler = scaler
        self.layoutSize = layoutSize
    }

    /// The decoder marked it a key frame (decoding can start at it).
    var isKeyFrame: Bool { frame.isKeyFrame }

    /// The decoded picture's size in pixels.
    var size: PixelSize? { frame.pictureSize }

    var pictureSize: PixelSize? { size }

    var format: PictureFormat? { PictureFormat(UnsafePointer(frame.pointer)) }

    /// The decoded planes this picture keeps from the decoder's pool.
    var byteCount: Int { frame.bufferByteCount }

    func draw(into buffer: PixelBuffer, placement: VideoPlacement, background: RGBColor) throws {
        try scaler.draw(frame, layoutSize: placement.sourceSize ?? layoutSize, into: buffer, placement: placement, background: background)
    }
}
