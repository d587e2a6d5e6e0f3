import Testing
import MarqueeCore

private func size(_ width: Int, _ height: Int) -> PixelSize { PixelSize(width: width, height: height) }
private func rect(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> PixelRect {
    PixelRect(x: x, y: y, width: width, height: height)
}
private let pal = size(720, 576)
private let palSAR = SampleAspectRatio(numerator: 64, denominator: 45)

@Suite struct ScalingGeometryTests {
    struct NaturalCase: Sendable, CustomTestStringConvertible {
        let geometry: ScalingGeometry
        let natural: PixelSize
        var testDescription: String { "\(geometry.sourceSize) \(geometry.sampleAspectRatio) \(geometry.sourceRotation)" }
    }

    static let naturalCases: [NaturalCase] = [
        NaturalCase(geometry: ScalingGeometry(sourceSize: size(1920, 1080), screenSize: size(1920, 1080)),
                    natural: size(1920, 1080)),
        // 720 * 64/45 = 1024 exactly; the height is kept.
        NaturalCase(geometry: ScalingGeometry(sourceSize: pal, sampleAspectRatio: palSAR, screenSize: size(1920, 1080)),
                    natural: size(1024, 576)),
        // 720 * 8/9 = 640 (NTSC 4:3).
        NaturalCase(geometry: ScalingGeometry(sourceSize: size(720, 480), sampleAspectRatio: .init(numerator: 8, denominator: 9),
                                              screenSize: size(1920, 1080)), natural: size(640, 480)),
        // 720 * 32/27 = 853.33 → 853.
        NaturalCase(geometry: ScalingGeometry(sourceSize: size(720, 480), sampleAspectRatio: .init(numerator: 32, denominator: 27),
                                              screenSize: size(1920, 1080)), natural: size(853, 480)),
        // FFmpeg's "unknown" 0:1 means square.
        NaturalCase(geometry: ScalingGeometry(sourceSize: size(720, 480), sampleAspectRatio: .init(numerator: 0, denominator: 1),
                                              screenSize: size(1920, 1080)), natural: size(720, 480)),
        NaturalCase(geometry: ScalingGeometry(sourceSize: size(1920, 1080), sourceRotation: .clockwise90, screenSize: size(1920, 1080)),
                    natural: size(1080, 1920)),
        // SAR first (720 → 1024), then the turn.
        NaturalCase(geometry: ScalingGeometry(sourceSize: pal, sampleAspectRatio: palSAR, sourceRotation: .clockwise270,
                                              screenSize: size(1920, 1080)), natural: size(576, 1024)),
    ]

    @Test(arguments: naturalCases)
    func naturalSize(_ example: NaturalCase) {
        #expect(example.geometry.naturalSize == example.natural)
    }

    @Test func logicalScreenSizeFollowsTheMounting() {
        let portrait = ScalingGeometry(sourceSize: size(1920, 1080), screenSize: size(1920, 1080), displayRotation: .clockwise90)
        #expect(portrait.logicalScreenSize == size(1080, 1920))
        let flipped = ScalingGeometry(sourceSize: size(1920, 1080), screenSize: size(1920, 1080), displayRotation: .upsideDown)
        #expect(flipped.logicalScreenSize == size(1920, 1080))
    }

    @Test func degenerateInputsStillDraw() {
        let geometry = ScalingGeometry(sourceSize: size(0, -3), screenSize: size(0, 0), sourceAlignment: 0, destinationAlignment: -2)
        for mode in ScalingMode.allCases {
            let placement = geometry.placement(for: mode)
            #expect(placement.sourceCrop == rect(0, 0, 1, 1))
            #expect(placement.destination == rect(0, 0, 1, 1))
        }
    }
}

// MARK: - Exact placements, worked out by hand

extension ScalingGeometryTests {
    struct ExactCase: Sendable, CustomTestStringConvertible {
        let name: String
        let geometry: ScalingGeometry
        let mode: ScalingMode
        let crop: PixelRect
        let destination: PixelRect
        var rotation: Rotation = .none
        var testDescription: String { "\(name), \(mode)" }
    }

    private static func cases(_ name: String, _ geometry: ScalingGeometry, rotation: Rotation = .none,
                              _ expected: [ScalingMode: (crop: PixelRect, destination: PixelRect)]) -> [ExactCase] {
        ScalingMode.allCases.compactMap { mode in
            expected[mode].map {
                ExactCase(name: name, geometry: geometry, mode: mode, crop: $0.crop, destination: $0.destination, rotation: rotation)
            }
        }
    }

    static let exactCases: [ExactCase] = [
        // Same size: every mode is the identity.
        cases("1920x1080 on 1920x1080", ScalingGeometry(sourceSize: size(1920, 1080), screenSize: size(1920, 1080)), [
            .none: (rect(0, 0, 1920, 1080), rect(0, 0, 1920, 1080)),
            .aspectFit: (rect(0, 0, 1920, 1080), rect(0, 0, 1920, 1080)),
            .aspectFill: (rect(0, 0, 1920, 1080), rect(0, 0, 1920, 1080)),
            .fill: (rect(0, 0, 1920, 1080), rect(0, 0, 1920, 1080)),
        ]),
        // 16:9 on 16:10. 1280*800 > 720*1280, so the picture is wider: fit is 1280 x 1280*720/1280 = 720,
        // letterboxed by (800-720)/2 = 40. Fill-with-aspect keeps 720 rows and 720*1280/800 = 1152 columns,
        // starting at (1280-1152)/2 = 64. None: 1280x720 fits, so it sits like fit.
        cases("1280x720 on 1280x800", ScalingGeometry(sourceSize: size(1280, 720), screenSize: size(1280, 800)), [
            .none: (rect(0, 0, 1280, 720), rect(0, 40, 1280, 720)),
            .aspectFit: (rect(0, 0, 1280, 720), rect(0, 40, 1280, 720)),
            .aspectFill: (rect(64, 0, 1152, 720), rect(0, 0, 1280, 800)),
            .fill: (rect(0, 0, 1280, 720), rect(0, 0, 1280, 800)),
        ]),
        // Natural 1024x576 is exactly 16:9 (1024*1080 == 576*1920): fit fills the screen.
        cases("PAL 720x576 @64:45 on 1920x1080", ScalingGeometry(sourceSize: pal, sampleAspectRatio: palSAR, screenSize: size(1920, 1080)), [
            .aspectFit: (rect(0, 0, 720, 576), rect(0, 0, 1920, 1080)),
        ]),
        // Natural 1024x576 on 1280x800. Fit: 1280 x 1280*576/1024 = 720 at y 40.
        // Fill-with-aspect: 576 rows, 576*1280/800 = 921.6 → 922 natural columns, from (1024-922)/2 = 51 to 973;
        // in coded pixels 51*720/1024 = 35.86 → 36 and 973*720/1024 = 684.14 → 684 (even grid): 36...684.
        // None: 1024x576 centred at ((1280-1024)/2, (800-576)/2) = (128, 112).
        cases("PAL 720x576 @64:45 on 1280x800", ScalingGeometry(sourceSize: pal, sampleAspectRatio: palSAR, screenSize: size(1280, 800)), [
            .none: (rect(0, 0, 720, 576), rect(128, 112, 1024, 576)),
            .aspectFit: (rect(0, 0, 720, 576), rect(0, 40, 1280, 720)),
            .aspectFill: (rect(36, 0, 648, 576), rect(0, 0, 1280, 800)),
            .fill: (rect(0, 0, 720, 576), rect(0, 0, 1280, 800)),
        ]),
        // Natural 1024x576 on a 1080x1920 portrait panel. Fit: 1080 x 1080*576/1024 = 607.5 → 608 (halves up),
        // at y (1920-608)/2 = 656. Fill-with-aspect: 576 rows, 576*1080/1920 = 324 natural columns from 350 to 674;
        // coded 350*720/1024 = 246.1 → 246 and 674*720/1024 = 473.9 → 474. None: at ((1080-1024)/2, (1920-576)/2).
        cases("PAL 720x576 @64:45 on 1080x1920", ScalingGeometry(sourceSize: pal, sampleAspectRatio: palSAR, screenSize: size(1080, 1920)), [
            .none: (rect(0, 0, 720, 576), rect(28, 672, 1024, 576)),
            .aspectFit: (rect(0, 0, 720, 576), rect(0, 656, 1080, 608)),
            .aspectFill: (rect(246, 0, 228, 576), rect(0, 0, 1080, 1920)),
            .fill: (rect(0, 0, 720, 576), rect(0, 0, 1080, 1920)),
        ]),
        // Natural 1080x1920 (turned 90) on 1920x1080. Fit: 1080 rows, 1080*1080/1920 = 607.5 → 608 columns at
        // x 656. Fill-with-aspect: the upright band y 656..1264 of 1080x1920, which is coded x 656..1264.
        // None: the upright 1080x1080 middle (y 420..1500) is coded x 420..1500, shown at x (1920-1080)/2 = 420.
        cases("1920x1080 turned 90 on 1920x1080",
              ScalingGeometry(sourceSize: size(1920, 1080), sourceRotation: .clockwise90, screenSize: size(1920, 1080)),
              rotation: .clockwise90, [
            .none: (rect(420, 0, 1080, 1080), rect(420, 0, 1080, 1080)),
            .aspectFit: (rect(0, 0, 1920, 1080), rect(656, 0, 608, 1080)),
            .aspectFill: (rect(656, 0, 608, 1080), rect(0, 0, 1920, 1080)),
            .fill: (rect(0, 0, 1920, 1080), rect(0, 0, 1920, 1080)),
        ]),
        // Screen mounted turned 90: the viewer sees 1080x1920. Fit: 1080 x 608 at logical y 656, which the
        // clockwise turn puts at framebuffer x 1920-656-608 = 656. Fill-with-aspect: 1080 rows and 608 columns
        // (x 656..1264) of the source. None: the 1080x1080 middle, at logical y 420 → framebuffer x 420.
        cases("1920x1080 on a 1920x1080 panel mounted turned 90",
              ScalingGeometry(sourceSize: size(1920, 1080), screenSize: size(1920, 1080), displayRotation: .clockwise90),
              rotation: .clockwise90, [
            .none: (rect(420, 0, 1080, 1080), rect(420, 0, 1080, 1080)),
            .aspectFit: (rect(0, 0, 1920, 1080), rect(656, 0, 608, 1080)),
            .aspectFill: (rect(656, 0, 608, 1080), rect(0, 0, 1920, 1080)),
            .fill: (rect(0, 0, 1920, 1080), rect(0, 0, 1920, 1080)),
        ]),
        // Unscaled 4:3: centred at ((1920-640)/2, (1080-480)/2), all of it shown.
        cases("640x480 on 1920x1080", ScalingGeometry(sourceSize: size(640, 480), screenSize: size(1920, 1080)), [
            .none: (rect(0, 0, 640, 480), rect(640, 300, 640, 480)),
        ]),
        // Unscaled 4K: the middle 1920x1080, from ((3840-1920)/2, (2160-1080)/2).
        cases("3840x2160 on 1920x1080", ScalingGeometry(sourceSize: size(3840, 2160), screenSize: size(1920, 1080)), [
            .none: (rect(960, 540, 1920, 1080), rect(0, 0, 1920, 1080)),
        ]),
        // Unscaled onto an odd-margined screen: the middle 1366x768 starts at coded x (1920-1366)/2 = 277, odd;
        // both edges round up to the even grid (277 → 278, 1643 → 1644), so the crop stays 1:1.
        cases("1920x1080 on 1366x768", ScalingGeometry(sourceSize: size(1920, 1080), screenSize: size(1366, 768)), [
            .none: (rect(278, 156, 1366, 768), rect(0, 0, 1366, 768)),
        ]),
        // Odd frame 321x241. Fill keeps the last column and row. Fit: 1080 rows, 1080*321/241 = 1438.5 → 1439
        // columns; x = (1920-1439)/2 = 240.5 → 241 (halves up), so margins 241 and 240.
        // Fill-with-aspect: 321 columns, 321*1080/1920 = 180.56 → 181 rows from 30 to 211; 211 → 212 (even).
        // The column span 0...321 reaches the far edge, so it stays 321 wide.
        cases("321x241 on 1920x1080", ScalingGeometry(sourceSize: size(321, 241), screenSize: size(1920, 1080)), [
            .aspectFit: (rect(0, 0, 321, 241), rect(241, 0, 1439, 1080)),
            .aspectFill: (rect(0, 30, 321, 182), rect(0, 0, 1920, 1080)),
            .fill: (rect(0, 0, 321, 241), rect(0, 0, 1920, 1080)),
        ]),
        // The same fit on an even destination grid: edges 240.5 → 240 and 1679.5 → 1680.
        cases("321x241 on 1920x1080, destination grid 2",
              ScalingGeometry(sourceSize: size(321, 241), screenSize: size(1920, 1080), destinationAlignment: 2), [
            .aspectFit: (rect(0, 0, 321, 241), rect(240, 0, 1440, 1080)),
        ]),
    ].flatMap { $0 }

    @Test(arguments: exactCases)
    func exactPlacement(_ example: ExactCase) {
        let placement = example.geometry.placement(for: example.mode)
        #expect(placement.sourceCrop == example.crop)
        #expect(placement.destination == example.destination)
        #expect(placement.rotation == example.rotation)
    }
}

// MARK: - Pixel rules over a grid of sources, screens, rotations and modes

extension ScalingGeometryTests {
    static let sources = [size(1920, 1080), size(1280, 720), size(720, 576), size(640, 480), size(3840, 2160),
                          size(321, 241), size(2, 2), size(7680, 4320), size(1, 1), size(1000, 3)]
    static let ratios = [SampleAspectRatio.square, palSAR, .init(numerator: 16, denominator: 11),
                         .init(numerator: 8, denominator: 9), .init(numerator: 4, denominator: 3)]
    static let screens = [size(1920, 1080), size(1280, 800), size(1080, 1920), size(800, 1280), size(720, 480),
                          size(3840, 2160), size(1366, 768)]
    /// (source, destination) grids: 4:2:0 onto plain scanout, RGB, and 4:2:0 onto an even-only plane.
    static let alignments = [(2, 1), (1, 1), (2, 2)]

    @Test(arguments: sources, ScalingMode.allCases)
    func pixelRulesHold(_ source: PixelSize, _ mode: ScalingMode) {
        for ratio in Self.ratios {
            for sourceRotation in Rotation.allCases {
                for screen in Self.screens {
                    for displayRotation in Rotation.allCases {
                        for (sourceGrid, destinationGrid) in Self.alignments {
                            let geometry = ScalingGeometry(
                                sourceSize: source, sampleAspectRatio: ratio, sourceRotation: sourceRotation,
                                screenSize: screen, displayRotation: displayRotation,
                                sourceAlignment: sourceGrid, destinationAlignment: destinationGrid)
                            PixelRules(geometry: geometry, mode: mode).check()
                        }
                    }
                }
            }
        }
    }
}

/// Every rule a placement must keep, checked for one geometry and mode.
private struct PixelRules {
    let geometry: ScalingGeometry
    let mode: ScalingMode
    let placement: VideoPlacement
    let context: Comment

    init(geometry: ScalingGeometry, mode: ScalingMode) {
        self.geometry = geometry
        self.mode = mode
        placement = geometry.placement(for: mode)
        context = """
            \(geometry.sourceSize) @\(geometry.sampleAspectRatio) turned \(geometry.sourceRotation.degrees) \
            on \(geometry.screenSize) turned \(geometry.displayRotation.degrees), \
            grids \(geometry.sourceAlignment)/\(geometry.destinationAlignment), \(mode): \
            crop \(placement.sourceCrop) → \(placement.destination)
            """
    }

    func check() {
        let source = geometry.sourceSize, screen = geometry.screenSize
        let crop = placement.sourceCrop, destination = placement.destination
        #expect(placement.rotation == geometry.sourceRotation + geometry.displayRotation, context)

        checkPlaced(crop, within: source, grid: geometry.sourceAlignment)
        checkPlaced(destination, within: screen, grid: geometry.destinationAlignment)

        let natural = geometry.naturalSize, logicalScreen = geometry.logicalScreenSize
        let pictureFits = natural.width <= logicalScreen.width && natural.height <= logicalScreen.height
        if mode == .fill || mode == .aspectFit || (mode == .none && pictureFits) {
            #expect(crop == PixelRect(size: source), "shows the whole source: \(context)")
        }
        if mode == .fill || mode == .aspectFill {
            #expect(destination == PixelRect(size: screen), "covers the screen: \(context)")
        }
        if mode == .none && geometry.destinationAlignment == 1 {
            let unscaled = PixelSize(width: min(natural.width, logicalScreen.width),
                                     height: min(natural.height, logicalScreen.height))
            #expect(destination.size.rotated(by: geometry.displayRotation) == unscaled, "1:1: \(context)")
        }
        if mode != .fill {
            checkAspect()
        }
    }

    /// Inside, non-empty, on the grid, centred.
    private func checkPlaced(_ rect: PixelRect, within container: PixelSize, grid: Int) {
        #expect(PixelRect(size: container).contains(rect), "inside: \(context)")
        #expect(rect.width >= min(grid, container.width) && rect.height >= min(grid, container.height),
                "non-empty: \(context)")
        #expect(rect.x % grid == 0 && rect.y % grid == 0, "aligned origin: \(context)")
        #expect(rect.width % grid == 0 || rect.maxX == container.width, "aligned width: \(context)")
        #expect(rect.height % grid == 0 || rect.maxY == container.height, "aligned height: \(context)")
        #expect(abs(rect.x - (container.width - rect.maxX)) <= grid, "centred across: \(context)")
        #expect(abs(rect.y - (container.height - rect.maxY)) <= grid, "centred down: \(context)")
    }

    /// The crop, seen upright at natural pixel shape, and the destination, seen on the logical screen,
    /// must have the same shape: the picture is scaled equally both ways.
    private func checkAspect() {
        let crop = placement.sourceCrop
        let unrotatedNatural = geometry.naturalSize.rotated(by: geometry.sourceRotation)
        let cropWidth = Double(crop.width * unrotatedNatural.width) / Double(geometry.sourceSize.width)
        let cropHeight = Double(crop.height * unrotatedNatural.height) / Double(geometry.sourceSize.height)
        let upright = geometry.sourceRotation.swapsAxes ? (cropHeight, cropWidth) : (cropWidth, cropHeight)
        let shown = placement.destination.size.rotated(by: geometry.displayRotation)
        let error = abs((Double(shown.width) / upright.0) / (Double(shown.height) / upright.1) - 1)

        // Each side may be off by its grid (both edges snapped the same way) plus under a pixel of
        // rounding in natural space; a coded pixel is at most 9/8 of a natural one in this grid.
        let sourceSlack = Double(geometry.sourceAlignment + 1), destinationSlack = Double(geometry.destinationAlignment + 1)
        let bound = sourceSlack / Double(crop.width) + sourceSlack / Double(crop.height)
            + destinationSlack / Double(shown.width) + destinationSlack / Double(shown.height)
        #expect(error <= bound, "aspect off by \(error) > \(bound): \(context)")

        // The headline promise, under 1%, for pictures big enough for rounding not to show: at least 100 grid
        // cells of destination, and a whole (unsnapped) frame or at least 150 grid cells of crop a side. A
        // 4:2:0 crop of 113 px can only be 112 or 114, a 1% miss by itself; tiny sources miss by far more.
        let wholeFrame = (mode == .aspectFit || mode == .none) && crop == PixelRect(size: geometry.sourceSize)
        let cropBigEnough = wholeFrame || min(crop.width, crop.height) >= 150 * geometry.sourceAlignment
        if min(shown.width, shown.height) >= 100 * geometry.destinationAlignment && cropBigEnough {
            #expect(error < 0.01, "aspect off by \(error): \(context)")
        }
    }
}
