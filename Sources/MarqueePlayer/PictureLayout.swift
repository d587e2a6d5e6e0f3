import MarqueeCore

/// Where an item's pictures go on the screen: everything placing one depends on but the picture's
/// own size, fixed when the player hands it to the decode thread and compared again when a
/// converted picture is shown (a scaling mode changed meanwhile means it is drawn again).
struct PictureLayout: Hashable, Sendable {
    var codedSize: PixelSize?
    var sampleAspectRatio: SampleAspectRatio
    var sourceRotation: Rotation
    var screenSize: PixelSize
    var displayRotation: Rotation
    var scalingMode: ScalingMode

    init(asset: Asset, screenSize: PixelSize, displayRotation: Rotation, scalingMode: ScalingMode) {
        codedSize = asset.codedSize
        sampleAspectRatio = asset.sampleAspectRatio
        sourceRotation = asset.rotation
        self.screenSize = screenSize
        self.displayRotation = displayRotation
        self.scalingMode = scalingMode
    }

    /// The picture's placement, laid out for its own size when it says one (a stream that changed
    /// resolution midway), else the asset's; nil when neither is known.
    func placement(for picture: VideoPicture) -> VideoPlacement? {
        guard let size = picture.pictureSize ?? codedSize else { return nil }
        return ScalingGeometry(sourceSize: size, sampleAspectRatio: sampleAspectRatio, sourceRotation: sourceRotation,
                               screenSize: screenSize, displayRotation: displayRotation).placement(for: scalingMode)
    }
}
