/// One decoded video frame, owned by the media backend (the FFmpeg frame stays inside it).
public protocol VideoPicture: AnyObject, Sendable {
    /// Presentation timestamp in the media's own time.
    var pts: MediaTime { get }
    /// Converts the frame straight into an output's buffer: `placement.sourceCrop` of the picture,
    /// scaled and turned into `placement.destination`, the rest painted `background`.
    func draw(into buffer: PixelBuffer, placement: VideoPlacement, background: RGBColor) throws
}
