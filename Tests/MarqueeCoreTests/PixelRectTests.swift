import Testing
import MarqueeCore

@Suite struct PixelRectTests {
    struct TurnCase: Sendable, CustomTestStringConvertible {
        let rotation: Rotation
        let expected: PixelRect
        var testDescription: String { "\(rotation)" }
    }

    // Container 1920x1080, rect (0,0,100,50) in its top-left corner. Turned clockwise:
    //   90:  the top-left corner goes to the top-right of a 1080x1920 container: x = 1080 - 50 → (1030,0,50,100)
    //   180: it goes to the bottom-right of 1920x1080: (1920-100, 1080-50) → (1820,1030,100,50)
    //   270: it goes to the bottom-left of 1080x1920: y = 1920 - 100 → (0,1820,50,100)
    static let turns: [TurnCase] = [
        TurnCase(rotation: .none, expected: PixelRect(x: 0, y: 0, width: 100, height: 50)),
        TurnCase(rotation: .clockwise90, expected: PixelRect(x: 1030, y: 0, width: 50, height: 100)),
        TurnCase(rotation: .upsideDown, expected: PixelRect(x: 1820, y: 1030, width: 100, height: 50)),
        TurnCase(rotation: .clockwise270, expected: PixelRect(x: 0, y: 1820, width: 50, height: 100)),
    ]

    static let container = PixelSize(width: 1920, height: 1080)

    @Test(arguments: turns)
    func turnsCornerRect(_ turn: TurnCase) {
        let rect = PixelRect(x: 0, y: 0, width: 100, height: 50)
        #expect(rect.rotated(turn.rotation, within: Self.container) == turn.expected)
    }

    static let rects = [
        PixelRect(x: 0, y: 0, width: 1920, height: 1080),
        PixelRect(x: 3, y: 7, width: 11, height: 13),
        PixelRect(x: 1900, y: 1000, width: 20, height: 80),
    ]

    @Test(arguments: rects, Rotation.allCases)
    func turningBackRestoresTheRect(_ rect: PixelRect, _ rotation: Rotation) {
        let turned = rect.rotated(rotation, within: Self.container)
        let turnedContainer = Self.container.rotated(by: rotation)
        #expect(PixelRect(size: turnedContainer).contains(turned))
        #expect(turned.rotated(rotation.inverse, within: turnedContainer) == rect)
    }

    @Test(arguments: Rotation.allCases, Rotation.allCases)
    func turnsCompose(_ first: Rotation, _ second: Rotation) {
        let rect = PixelRect(x: 3, y: 7, width: 11, height: 13)
        let once = rect.rotated(first, within: Self.container)
        let twice = once.rotated(second, within: Self.container.rotated(by: first))
        #expect(twice == rect.rotated(first + second, within: Self.container))
    }

    @Test func containsChecksEveryEdge() {
        let frame = PixelRect(x: 0, y: 0, width: 10, height: 10)
        #expect(frame.contains(frame))
        #expect(frame.contains(PixelRect(x: 2, y: 2, width: 8, height: 8)))
        #expect(!frame.contains(PixelRect(x: 2, y: 2, width: 9, height: 8)))
        #expect(!frame.contains(PixelRect(x: 2, y: 2, width: 8, height: 9)))
        #expect(!frame.contains(PixelRect(x: -1, y: 0, width: 5, height: 5)))
        #expect(!frame.contains(PixelRect(x: 0, y: -1, width: 5, height: 5)))
    }

    @Test func sizeHelpers() {
        #expect(PixelSize(width: 1920, height: 1080).swapped == PixelSize(width: 1080, height: 1920))
        #expect(PixelSize(width: 0, height: 1080).isEmpty)
        #expect(!PixelSize(width: 1, height: 1).isEmpty)
        #expect(SampleAspectRatio(numerator: 0, denominator: 1) == .square)
        #expect(SampleAspectRatio(numerator: 16, denominator: 0) == .square)
        #expect(SampleAspectRatio(numerator: 128, denominator: 90) == SampleAspectRatio(numerator: 64, denominator: 45))
    }
}
