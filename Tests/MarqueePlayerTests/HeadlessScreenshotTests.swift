import MarqueeCore
import MarqueePlayer
import Testing

/// The headless output's screenshot is what it shows now, and stays so while later frames are drawn.
@Suite struct HeadlessScreenshotTests {
    static let size = PixelSize(width: 4, height: 3)
    static let red = RGBColor(red: 255, green: 0, blue: 0)
    static let blue = RGBColor(red: 0, green: 0, blue: 255)

    @Test func theScreenshotIsThePresentedCanvas() throws {
        let output = HeadlessVideoOutput(size: Self.size)
        try output.present { $0.fill(PixelRect(x: 1, y: 1, width: 2, height: 1), with: Self.red) }

        let shot = try #require(try output.screenshot())

        #expect(shot.size == Self.size)
        #expect(shot.pixels == output.canvas.pixels)
        #expect(shot[1, 1] == Self.red && shot[0, 0] == .black)
    }

    @Test func aPreparedPictureIsNotInTheScreenshotUntilShown() throws {
        let output = HeadlessVideoOutput(size: Self.size, background: Self.blue)
        try output.prepare { $0.fill(PixelRect(size: Self.size), with: Self.red) }

        let shot = try #require(try output.screenshot())

        #expect(shot.pixels.allSatisfy { $0 == Self.blue.xrgb8888 })
    }

    @Test func laterPresentsLeaveTheScreenshotAlone() throws {
        let output = HeadlessVideoOutput(size: Self.size)
        try output.present { $0.fill(PixelRect(size: Self.size), with: Self.red) }
        let shot = try #require(try output.screenshot())

        // Both buffers are drawn over: the one on screen when the shot was taken, and the other.
        try output.present { $0.fill(PixelRect(size: Self.size), with: Self.blue) }
        try output.present { $0.fill(PixelRect(size: Self.size), with: Self.blue) }

        #expect(!(shot === output.canvas))
        #expect(shot.pixels.allSatisfy { $0 == Self.red.xrgb8888 })
        #expect(output.canvas[0, 0] == Self.blue)
    }
}
