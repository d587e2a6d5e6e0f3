import MarqueeCore

/// A picture of one moment of a media item (MPMoviePlayerController's thumbnailImageAtTime:timeOption:).
public enum Thumbnailer {
    /// Decodes the picture at `time` and draws it into a new Canvas.
    /// - Parameters:
    ///   - exact: false takes the keyframe at or before `time` (nearestKeyFrame: fast, one decode after
    ///     the seek); true takes the frame that is on screen at `time` (decoding on from that keyframe).
    ///     A time past the end gives the last picture; a still image has only its one picture.
    ///   - size: the canvas size; nil for the picture's natural size (sample aspect ratio and rotation applied).
    ///   - scaling: how the picture is fitted into a `size` of another shape.
    public static func thumbnail(of url: String, at time: MediaTime, exact: Bool = false, size: PixelSize? = nil,
                                 scaling: ScalingMode = .aspectFit, background: RGBColor = .black,
                                 options: MediaOpenOptions = MediaOpenOptions()) throws(PlaybackError) -> Canvas {
        let reader = try FFmpegMediaReader(url: url, options: options)
        let asset = reader.asset
        guard let codedSize = asset.codedSize, let naturalSize = asset.naturalSize else {
            throw PlaybackError(url: url, reason: "no video stream to take a picture of")
        }
        guard let picture = try picture(from: reader, at: max(time, .zero), exact: exact) else {
            throw PlaybackError(url: url, reason: "no picture could be decoded at \(time)")
        }
        let canvasSize = size ?? naturalSize
        guard !canvasSize.isEmpty else { throw PlaybackError(url: url, reason: "cannot draw into a \(canvasSize) picture") }
        let placement = ScalingGeometry(sourceSize: codedSize, sampleAspectRatio: asset.sampleAspectRatio,
                                        sourceRotation: asset.rotation, screenSize: canvasSize)
            .placement(for: scaling)
        let canvas = Canvas(size: canvasSize, background: background)
        do {
            try canvas.withPixelBuffer { try picture.draw(into: $0, placement: placement, background: background) }
        } catch {
            throw PlaybackError(url: url, reason: "drawing the picture failed: \(error)")
        }
        return canvas
    }

    private static func picture(from reader: FFmpegMediaReader, at time: MediaTime, exact: Bool) throws(PlaybackError) -> VideoPicture? {
        let asset = reader.asset
        if asset.isStillImage { return try reader.nextPicture() }
        // Without seeking, decoding starts at the first frame: a keyframe at or before any time,
        // just not the nearest, and exact mode decodes forward from it all the same.
        // A picture only: the seek need not reach back for the audio's pre-roll.
        if time > .zero && asset.isSeekable { try reader.seek(to: time, includingAudio: false) }
        guard exact else { return try reader.nextPicture() }
        var trimmer = VideoTrimmer<VideoPicture>(timing: ItemTiming(start: time, end: nil))
        while let picture = try reader.nextPicture() {
            if let first = trimmer.push(picture, pts: picture.pts).first { return first.frame }
        }
        return trimmer.finish().first?.frame
    }
}
