/// Where one video frame goes: which part of the decoded picture, where on the framebuffer, turned how.
public struct VideoPlacement: Hashable, Sendable {
    /// In the decoded (coded) picture's own pixels, before any rotation.
    public var sourceCrop: PixelRect
    /// In framebuffer pixels.
    public var destination: PixelRect
    /// Clockwise turn to apply to the cropped source when drawing it into `destination`
    /// (source rotation + display rotation).
    public var rotation: Rotation
    /// The picture size `sourceCrop` was chosen for; nil: the asset's coded size. A frame of
    /// another size has the same region cropped from it.
    public var sourceSize: PixelSize?

    public init(sourceCrop: PixelRect, destination: PixelRect, rotation: Rotation, sourceSize: PixelSize? = nil) {
        self.sourceCrop = sourceCrop
        self.destination = destination
        self.rotation = rotation
        self.sourceSize = sourceSize
    }
}

/// Fits a video picture to a screen for each `ScalingMode`.
///
/// The layout is decided in the viewer's upright space (the picture at its natural size on the screen as
/// the viewer sees it), because only there do "centred" and "aspect kept" mean what the viewer expects.
/// It is then mapped to coded source pixels and framebuffer pixels and snapped there, since those are the
/// grids that chroma subsampling and scanout care about. Edges stay exact (half pixels, fractions) until
/// that one final snap, so rounding never piles up and centring survives every rotation.
public struct ScalingGeometry: Hashable, Sendable {
    public let sourceSize: PixelSize
    public let sampleAspectRatio: SampleAspectRatio
    public let sourceRotation: Rotation
    /// The framebuffer's size, as scanned out.
    public let screenSize: PixelSize
    /// Screen rotation: everything is drawn turned clockwise by this on the framebuffer (as
    /// `xrandr --rotate right` does for 90), for a screen mounted turned counter-clockwise by the
    /// same amount, so the viewer sees the picture upright on a portrait-mounted panel.
    public let displayRotation: Rotation
    /// The chroma grid of the source (2 for 4:2:0, 1 for RGB): crops off this grid shift colour against luma.
    public let sourceAlignment: Int
    public let destinationAlignment: Int

    /// Sizes and alignments below one pixel are raised to one, so a broken stream still yields a drawable answer.
    public init(sourceSize: PixelSize, sampleAspectRatio: SampleAspectRatio = .square, sourceRotation: Rotation = .none,
                screenSize: PixelSize, displayRotation: Rotation = .none,
                sourceAlignment: Int = 2, destinationAlignment: Int = 1) {
        self.sourceSize = PixelSize(width: max(1, sourceSize.width), height: max(1, sourceSize.height))
        self.sampleAspectRatio = sampleAspectRatio
        self.sourceRotation = sourceRotation
        self.screenSize = PixelSize(width: max(1, screenSize.width), height: max(1, screenSize.height))
        self.displayRotation = displayRotation
        self.sourceAlignment = max(1, sourceAlignment)
        self.destinationAlignment = max(1, destinationAlignment)
    }

    /// The picture as displayed: width scaled by the sample aspect ratio (height kept, as FFmpeg does),
    /// then turned by the source rotation. 720x576 at 64:45 gives 1024x576.
    public var naturalSize: PixelSize { unrotatedNaturalSize.rotated(by: sourceRotation) }

    /// The screen as the viewer sees it.
    public var logicalScreenSize: PixelSize { screenSize.rotated(by: displayRotation) }

    public func placement(for mode: ScalingMode) -> VideoPlacement {
        let picture = naturalSize
        let screen = logicalScreenSize
        // Both in half pixels of upright space: `visible` within the picture, `shown` on the screen.
        let visible: PixelRect
        let shown: PixelRect
        switch mode {
        case .fill:
            visible = Self.centred(picture, in: picture)
            shown = Self.centred(screen, in: screen)
        case .aspectFit:
            visible = Self.centred(picture, in: picture)
            shown = Self.centred(Self.largest(shapedLike: picture, within: screen), in: screen)
        case .aspectFill:
            visible = Self.centred(Self.largest(shapedLike: screen, within: picture), in: picture)
            shown = Self.centred(screen, in: screen)
        case .none:
            let overlap = PixelSize(width: min(picture.width, screen.width), height: min(picture.height, screen.height))
            visible = Self.centred(overlap, in: picture)
            shown = Self.centred(overlap, in: screen)
        }
        return VideoPlacement(sourceCrop: sourceCrop(showing: visible),
                              destination: framebufferRect(for: shown),
                              rotation: sourceRotation + displayRotation, sourceSize: sourceSize)
    }

    private var unrotatedNaturalSize: PixelSize {
        PixelSize(width: sampleAspectRatio.displayWidth(ofCodedWidth: sourceSize.width), height: sourceSize.height)
    }

    /// `visible` is in half natural pixels, upright.
    private func sourceCrop(showing visible: PixelRect) -> PixelRect {
        let unrotated = visible.rotated(sourceRotation.inverse, within: naturalSize.doubled)
        let natural = unrotatedNaturalSize
        // Coded = natural * coded / natural per axis; the doubling of half pixels goes into the denominator.
        let x = AlignedSpan(from: unrotated.x * sourceSize.width, to: unrotated.maxX * sourceSize.width,
                            over: 2 * natural.width, grid: sourceAlignment, limit: sourceSize.width)
        let y = AlignedSpan(from: unrotated.y * sourceSize.height, to: unrotated.maxY * sourceSize.height,
                            over: 2 * natural.height, grid: sourceAlignment, limit: sourceSize.height)
        return PixelRect(x: x.start, y: y.start, width: x.length, height: y.length)
    }

    /// `shown` is in half logical screen pixels.
    private func framebufferRect(for shown: PixelRect) -> PixelRect {
        let turned = shown.rotated(displayRotation, within: logicalScreenSize.doubled)
        let x = AlignedSpan(from: turned.x, to: turned.maxX, over: 2, grid: destinationAlignment, limit: screenSize.width)
        let y = AlignedSpan(from: turned.y, to: turned.maxY, over: 2, grid: destinationAlignment, limit: screenSize.height)
        return PixelRect(x: x.start, y: y.start, width: x.length, height: y.length)
    }

    /// The largest size with `shape`'s aspect inside `box`: the limiting side exactly the box's,
    /// the other rounded to nearest, in integers so equal aspects never wobble.
    private static func largest(shapedLike shape: PixelSize, within box: PixelSize) -> PixelSize {
        if shape.width * box.height >= shape.height * box.width {
            let height = roundedQuotient(box.width * shape.height, shape.width)
            return PixelSize(width: box.width, height: max(1, height))
        }
        let width = roundedQuotient(box.height * shape.width, shape.height)
        return PixelSize(width: max(1, width), height: box.height)
    }

    /// `size` centred in `container`, in half pixels so an odd leftover splits evenly on both sides.
    private static func centred(_ size: PixelSize, in container: PixelSize) -> PixelRect {
        PixelRect(x: container.width - size.width, y: container.height - size.height,
                  width: 2 * size.width, height: 2 * size.height)
    }
}

/// One axis of a rect whose ideal edges are exact fractions, snapped onto a pixel grid inside `0...limit`.
private struct AlignedSpan {
    var start: Int
    var length: Int

    init(from lower: Int, to upper: Int, over denominator: Int, grid: Int, limit: Int) {
        let lastLine = limit / grid * grid
        func nearestLine(_ numerator: Int, _ denominator: Int, highest: Int) -> Int {
            let line = roundedQuotient(numerator, denominator * grid) * grid
            return min(max(line, 0), highest)
        }
        var start = nearestLine(lower, denominator, highest: lastLine)
        var end = nearestLine(upper, denominator, highest: lastLine)
        // The far edge may stop at the limit itself, so an odd-sized full frame keeps its last row or column.
        if abs(limit * denominator - upper) <= abs(end * denominator - upper) {
            end = limit
        }
        // Something must be drawn: centre the smallest aligned span on the ideal centre instead.
        let minimum = min(grid, limit)
        if end - start < minimum {
            let idealStart = lower + upper - minimum * denominator  // over 2 * denominator
            start = nearestLine(idealStart, 2 * denominator, highest: (limit - minimum) / grid * grid)
            end = start + minimum
        }
        self.start = start
        self.length = end - start
    }
}

/// numerator / denominator rounded to nearest, halves up; `denominator` must be positive.
private func roundedQuotient(_ numerator: Int, _ denominator: Int) -> Int {
    let twice = 2 * numerator + denominator
    let divisor = 2 * denominator
    // Floor division, so that negative ideal edges round the same way as positive ones.
    return twice >= 0 ? twice / divisor : -((-twice + divisor - 1) / divisor)
}

private extension PixelSize {
    var doubled: PixelSize { PixelSize(width: 2 * width, height: 2 * height) }
}
