import MarqueeCore

/// The decoded picture about to be drawn, with what is needed to place it on another screen.
public struct MirroredPicture {
    public let picture: VideoPicture
    /// The coded size, sample aspect ratio and rotation metadata of the item's video.
    public let sourceSize: PixelSize
    public let sampleAspectRatio: SampleAspectRatio
    public let sourceRotation: Rotation
    /// The item's or the user's scaling mode; nil leaves each mirror its own.
    public let scaling: ScalingMode?

    public init(picture: VideoPicture, sourceSize: PixelSize, sampleAspectRatio: SampleAspectRatio,
                sourceRotation: Rotation, scaling: ScalingMode?) {
        self.picture = picture
        self.sourceSize = sourceSize
        self.sampleAspectRatio = sampleAspectRatio
        self.sourceRotation = sourceRotation
        self.scaling = scaling
    }
}

/// An output that shows the player's pictures on further screens (`mirror:`): told of each
/// decoded picture before the player draws it, it draws that same picture again, placed for each
/// mirror's own mode, instead of decoding it twice.
public protocol PictureMirroring: AnyObject {
    func willDraw(_ picture: MirroredPicture)
}
