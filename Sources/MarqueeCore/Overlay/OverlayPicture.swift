/// The OSD as an overlay plane shows it: premultiplied ARGB8888 pixels (an `OverlayImage`'s own
/// layout, so the bytes go to the plane's buffer as they are) and where they go on the screen.
///
/// `frame` is in the scanout buffer's coordinates, like every `PixelBuffer` the player draws into:
/// for a screen turned in software the picture is already turned, so the plane needs no rotation
/// of its own. It lies inside the screen (the part off screen is cropped away before).
public struct OverlayPicture: Hashable, Sendable {
    public let image: OverlayImage
    public let frame: PixelRect

    /// `image` with its top-left at (x, y) of the screen.
    public init(image: OverlayImage, x: Int, y: Int) {
        self.image = image
        frame = PixelRect(x: x, y: y, width: image.size.width, height: image.size.height)
    }
}
