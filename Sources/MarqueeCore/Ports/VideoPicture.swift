/// One decoded video frame, owned by the media backend (the FFmpeg frame stays inside it).
public protocol VideoPicture: AnyObject, Sendable {
    /// Presentation timestamp in the media's own time.
    var pts: MediaTime { get }
    /// The decoded picture's own size, when the backend knows it: a stream can change it midway
    /// (a TS going from 320x180 to 640x360), and the picture is laid out for its own.
    var pictureSize: PixelSize? { get }
    /// What the picture is made of (pixel layout, size, range, matrix): what the player negotiates
    /// with the output. nil when the backend does not say.
    var format: PictureFormat? { get }
    /// Converts the frame straight into an output's buffer: `placement.sourceCrop` of the picture,
    /// scaled and turned into `placement.destination`, the rest painted `background`.
    func draw(into buffer: PixelBuffer, placement: VideoPlacement, background: RGBColor) throws
    /// The memory the picture keeps alive while it is held (its decoded planes), in bytes: what
    /// bounds how many are decoded ahead. 0 when the backend does not say.
    var byteCount: Int { get }
}

extension VideoPicture {
    /// Unknown: laid out for the asset's coded size.
    public var pictureSize: PixelSize? { nil }
    /// Unknown: negotiated as nothing in particular.
    public var format: PictureFormat? { nil }
    /// Unknown: only the count of pictures bounds what is decoded ahead.
    public var byteCount: Int { 0 }
}
