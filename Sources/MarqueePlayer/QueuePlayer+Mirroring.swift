import MarqueeCore

extension QueuePlayer {
    /// Tells an output with mirrors (`PictureMirroring`) which decoded picture the next `prepare`
    /// or `present` draws: each mirror draws the same picture again, placed for its own mode,
    /// rather than decode it a second time. Also before the last picture is drawn again (the
    /// OSD's labels come or fade), so the mirrors keep it and do not fall back to their background.
    func announceToMirrors(_ picture: VideoPicture) {
        guard let mirroring = video as? PictureMirroring, let asset = current?.asset, let codedSize = asset.codedSize,
              let pipeline = current?.pipeline else { return }
        mirroring.willDraw(MirroredPicture(picture: picture, sourceSize: codedSize, sampleAspectRatio: asset.sampleAspectRatio,
                                           sourceRotation: asset.rotation, scaling: userScaling ?? pipeline.item.scaling))
    }
}
