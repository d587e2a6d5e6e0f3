import Foundation
import MarqueeCore
import MarqueeMedia
import Testing

/// Pixel checks of `draw(into:placement:background:)`: real decoded pictures of four solid quadrants
/// (top left red, top right lime, bottom left blue, bottom right yellow) drawn through Core's
/// `ScalingGeometry` into canvases, for every scaling mode, an anamorphic and a rotated source, a
/// landscape and a portrait screen, upright and with the screen mounted turned.
@Suite struct DrawGeometryTests {
    static let background = RGBColor(red: 0x20, green: 0x40, blue: 0x60)
    static let red = RGBColor(red: 255, green: 0, blue: 0)
    static let lime = RGBColor(red: 0, green: 255, blue: 0)
    static let blue = RGBColor(red: 0, green: 0, blue: 255)
    static let yellow = RGBColor(red: 255, green: 255, blue: 0)
    /// YUV 4:2:0 round trips and bicubic scaling move flat colours by a few steps.
    static let tolerance = 12

    static let landscape = PixelSize(width: 640, height: 360)
    static let portrait = PixelSize(width: 360, height: 640)

    // MARK: Hand-worked cases

    @Test func anamorphicPALFitsA16By9ScreenExactly() throws {
        let drawn = try Self.draw(.anamorphicQuadrants, on: Self.landscape, mode: .aspectFit)

        // 720x576 at 64:45 is 1024x576: 16:9, the screen's own shape.
        #expect(drawn.placement == VideoPlacement(sourceCrop: PixelRect(x: 0, y: 0, width: 720, height: 576),
                                                  destination: PixelRect(x: 0, y: 0, width: 640, height: 360), rotation: .none,
                                                  sourceSize: PixelSize(width: 720, height: 576)))
        try Self.expect(drawn.canvas, at: [(160, 90, Self.red), (480, 90, Self.lime), (160, 270, Self.blue), (480, 270, Self.yellow)])
    }

    @Test func anamorphicPALIsLetterboxedOnAPortraitScreen() throws {
        let drawn = try Self.draw(.anamorphicQuadrants, on: Self.portrait, mode: .aspectFit)

        // 360 wide, 360 × 576/1024 = 202.5 → 203 high, centred: (640 − 203)/2 = 218.5 → 219 from the top.
        #expect(drawn.placement.destination == PixelRect(x: 0, y: 219, width: 360, height: 203))
        try Self.expect(drawn.canvas, at: [(90, 218, Self.background), (90, 219 + 50, Self.red), (270, 421 - 50, Self.yellow),
                                           (270, 422, Self.background)])
    }

    @Test func anamorphicPALFillingAPortraitScreenShowsItsMiddle() throws {
        let drawn = try Self.draw(.anamorphicQuadrants, on: Self.portrait, mode: .aspectFill)

        // 576 × 360/640 = 324 natural columns of 1024, centred at 350...674; in coded pixels
        // 350 × 720/1024 = 246.1 → 246 and 674 × 720/1024 = 473.9 → 474 (even: 4:2:0).
        #expect(drawn.placement == VideoPlacement(sourceCrop: PixelRect(x: 246, y: 0, width: 228, height: 576),
                                                  destination: PixelRect(x: 0, y: 0, width: 360, height: 640), rotation: .none,
                                                  sourceSize: PixelSize(width: 720, height: 576)))
        try Self.expect(drawn.canvas, at: [(90, 160, Self.red), (270, 160, Self.lime), (90, 480, Self.blue), (270, 480, Self.yellow)])
    }

    @Test func anamorphicPALUnscaledShowsItsCentreAtNaturalSize() throws {
        let drawn = try Self.draw(.anamorphicQuadrants, on: Self.landscape, mode: .none)

        // 640x360 of the 1024x576 natural picture, centred: natural x 192...832 is coded 135 → 136 and
        // 585 → 586; rows 108...468.
        #expect(drawn.placement.sourceCrop == PixelRect(x: 136, y: 108, width: 450, height: 360))
        #expect(drawn.placement.destination == PixelRect(x: 0, y: 0, width: 640, height: 360))
        // The coded centre (360, 288) lands at ((360 − 136) × 640/450, 288 − 108) = (318.6, 180).
        try Self.expect(drawn.canvas, at: [(150, 90, Self.red), (480, 90, Self.lime), (150, 270, Self.blue), (480, 270, Self.yellow),
                                           (300, 170, Self.red), (340, 190, Self.yellow)])
    }

    @Test func aClockwiseRotatedSourceIsTurnedClockwise() throws {
        let drawn = try Self.draw(.rotatedQuadrants, on: Self.landscape, mode: .aspectFit)

        // Displayed 240x320: 360 high, 270 wide, pillarboxed from x 185.
        #expect(drawn.placement == VideoPlacement(sourceCrop: PixelRect(x: 0, y: 0, width: 320, height: 240),
                                                  destination: PixelRect(x: 185, y: 0, width: 270, height: 360), rotation: .clockwise90,
                                                  sourceSize: PixelSize(width: 320, height: 240)))
        // Turned clockwise the top left (red) goes top right, top right (lime) bottom right,
        // bottom right (yellow) bottom left, bottom left (blue) top left.
        try Self.expect(drawn.canvas, at: [(185 + 67, 90, Self.blue), (185 + 202, 90, Self.red),
                                           (185 + 67, 270, Self.yellow), (185 + 202, 270, Self.lime),
                                           (184, 180, Self.background), (455, 180, Self.background)])
    }

    @Test func aScreenMountedTurnedGetsThePictureTurnedWithIt() throws {
        let drawn = try Self.draw(.anamorphicQuadrants, on: Self.landscape, mode: .aspectFit, displayRotation: .clockwise90)

        // The viewer's screen is 360x640: the 203-line letterbox of the portrait case, turned into the framebuffer.
        #expect(drawn.placement.destination == PixelRect(x: 219, y: 0, width: 203, height: 360))
        #expect(drawn.placement.rotation == .clockwise90)
        try Self.expect(drawn.canvas, at: [(219 + 50, 90, Self.blue), (421 - 50, 90, Self.red),
                                           (219 + 50, 270, Self.yellow), (421 - 50, 270, Self.lime)])
    }

    @Test func aRotatedSourceOnATurnedScreenIsUpsideDown() throws {
        let drawn = try Self.draw(.rotatedQuadrants, on: Self.landscape, mode: .fill, displayRotation: .clockwise90)

        #expect(drawn.placement.rotation == .upsideDown)
        #expect(drawn.placement.destination == PixelRect(x: 0, y: 0, width: 640, height: 360))
        try Self.expect(drawn.canvas, at: [(160, 90, Self.yellow), (480, 90, Self.blue), (160, 270, Self.lime), (480, 270, Self.red)])
    }

    // MARK: Every combination, checked against a model of the placement

    struct Case: CustomTestStringConvertible, Sendable {
        let source: FixtureMedia.Recipe
        let sourceLabel: String
        let screen: PixelSize
        let mode: ScalingMode
        let displayRotation: Rotation
        var testDescription: String { "\(sourceLabel) on \(screen) \(mode) display \(displayRotation.degrees)°" }
    }

    static let cases: [Case] = {
        let sources: [(FixtureMedia.Recipe, String)] = [(.anamorphicQuadrants, "anamorphic"), (.rotatedQuadrants, "rotated cw90")]
        var cases: [Case] = []
        for (source, label) in sources {
            for screen in [landscape, portrait] {
                for mode in ScalingMode.allCases {
                    for displayRotation in [Rotation.none, .clockwise90] {
                        cases.append(Case(source: source, sourceLabel: label, screen: screen, mode: mode, displayRotation: displayRotation))
                    }
                }
            }
        }
        return cases
    }()

    @Test(arguments: cases)
    func barsAreBackgroundEdgesArePictureAndQuadrantsLandWhereThePlacementSays(_ example: Case) throws {
        let drawn = try Self.draw(example.source, on: example.screen, mode: example.mode, displayRotation: example.displayRotation)
        let canvas = drawn.canvas
        let destination = drawn.placement.destination
        #expect(PixelRect(size: example.screen).contains(destination) && !destination.isEmpty)

        // Bars: every pixel outside the destination is exactly the background.
        var wrongBars = 0
        for y in 0..<canvas.size.height {
            for x in 0..<canvas.size.width where !destination.containsPoint(x: x, y: y) {
                if canvas[x, y] != Self.background { wrongBars += 1 }
            }
        }
        #expect(wrongBars == 0, "\(wrongBars) bar pixels are not the background")

        // Just inside each edge, a quarter and three quarters along it: picture, of the right quadrant.
        var edgePoints: [(Int, Int)] = []
        for fraction in [0.25, 0.75] {
            let x = destination.x + Int(Double(destination.width) * fraction)
            let y = destination.y + Int(Double(destination.height) * fraction)
            edgePoints += [(x, destination.y), (x, destination.maxY - 1), (destination.x, y), (destination.maxX - 1, y)]
        }
        // And a grid over the inside, away from the quadrant borders.
        var gridPoints: [(Int, Int)] = []
        for row in 0..<8 {
            for column in 0..<8 {
                gridPoints.append((destination.x + (2 * column + 1) * destination.width / 16,
                                   destination.y + (2 * row + 1) * destination.height / 16))
            }
        }
        var checked = 0
        for (x, y) in edgePoints + gridPoints {
            guard let expected = Self.expectedColor(atX: x, y: y, placement: drawn.placement, codedSize: drawn.codedSize) else { continue }
            checked += 1
            let actual = canvas[x, y]
            #expect(actual.distance(to: expected) <= Self.tolerance, "(\(x),\(y)) is \(actual), expected \(expected)")
        }
        #expect(checked >= 40)
    }

    // MARK: Helpers

    struct Drawn {
        let canvas: Canvas
        let placement: VideoPlacement
        let codedSize: PixelSize
    }

    /// The first picture of `recipe` drawn as the engine draws it onto a screen of `screen`.
    static func draw(_ recipe: FixtureMedia.Recipe, on screen: PixelSize, mode: ScalingMode,
                     displayRotation: Rotation = .none) throws -> Drawn {
        let reader = try FFmpegMediaOpener().open(FixtureMedia.path(recipe))
        let asset = reader.asset
        let codedSize = try #require(asset.codedSize)
        let placement = ScalingGeometry(sourceSize: codedSize, sampleAspectRatio: asset.sampleAspectRatio,
                                        sourceRotation: asset.rotation, screenSize: screen,
                                        displayRotation: displayRotation).placement(for: mode)
        let picture = try #require(try reader.nextPicture())
        // Another colour first, so the bars prove draw() paints them.
        let canvas = Canvas(size: screen, background: RGBColor(red: 255, green: 0, blue: 255))
        try canvas.withPixelBuffer { try picture.draw(into: $0, placement: placement, background: background) }
        return Drawn(canvas: canvas, placement: placement, codedSize: codedSize)
    }

    /// Which quadrant's colour the framebuffer pixel (x, y) shows, found by undoing the placement:
    /// position within the destination → turned back → position within the crop → coded pixel.
    /// nil near a quadrant border, where scaling blends colours.
    static func expectedColor(atX x: Int, y: Int, placement: VideoPlacement, codedSize: PixelSize) -> RGBColor? {
        let destination = placement.destination
        let u = (Double(x - destination.x) + 0.5) / Double(destination.width)
        let v = (Double(y - destination.y) + 0.5) / Double(destination.height)
        // (s, t): where in the upright crop; a clockwise turn took crop (s, t) to screen (u, v).
        let (s, t): (Double, Double) = switch placement.rotation {
        case .none: (u, v)
        case .clockwise90: (v, 1 - u)
        case .upsideDown: (1 - u, 1 - v)
        case .clockwise270: (1 - v, u)
        }
        let crop = placement.sourceCrop
        let codedX = Double(crop.x) + s * Double(crop.width)
        let codedY = Double(crop.y) + t * Double(crop.height)
        let middleX = Double(codedSize.width) / 2, middleY = Double(codedSize.height) / 2
        guard abs(codedX - middleX) > 0.03 * Double(codedSize.width),
              abs(codedY - middleY) > 0.03 * Double(codedSize.height) else { return nil }
        switch (codedX < middleX, codedY < middleY) {
        case (true, true): return red
        case (false, true): return lime
        case (true, false): return blue
        case (false, false): return yellow
        }
    }

    static func expect(_ canvas: Canvas, at samples: [(Int, Int, RGBColor)],
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        for (x, y, expected) in samples {
            let actual = canvas[x, y]
            let exact = expected == background
            #expect(exact ? actual == expected : actual.distance(to: expected) <= tolerance,
                    "(\(x),\(y)) is \(actual), expected \(expected)", sourceLocation: sourceLocation)
        }
    }
}

private extension PixelRect {
    func containsPoint(x px: Int, y py: Int) -> Bool {
        px >= x && px < maxX && py >= y && py < maxY
    }
}
