import Foundation
import Testing
import MarqueeCore
import MarqueeMedia

/// The status card painted on a 1280x720 screen with the real DejaVu backends, read back by tesseract.
@Suite struct StatusCardPainterTests {
    static func screen(showing content: StatusCardContent) throws -> (Canvas, OverlayImage) {
        let size = PixelSize(width: 1280, height: 720)
        let card = try StatusCardPainter(text: try TestFont.renderer()).paint(content, size: size)
        let canvas = Canvas(size: size)
        _ = canvas.withPixelBuffer { pixels in pixels.blend(card, x: 0, y: 0) }
        return (canvas, card)
    }

    static func card(reasons: [String]) -> StatusCardContent {
        StatusCardContent(headline: "Nothing to play", reasons: reasons, hostname: "lobby-sign",
                          addresses: ["192.168.1.20", "fd00::20"], version: "marquee 0.9", time: "14:05")
    }

    @Test func tesseractReadsTheHeadlineReasonsHostAndVersion() throws {
        let (canvas, card) = try Self.screen(showing: Self.card(reasons: ["clip.mp4: no such file",
                                                                          "intro.mov: unsupported codec"]))
        #expect(card.size == PixelSize(width: 1280, height: 720))
        // Opaque: no video shows through anywhere. (Text edges come out at 254, not 255: the integer
        // "over" truncates; a 1/255 show-through is invisible.)
        #expect(card.pixels.allSatisfy { $0 >> 24 >= 254 })
        #expect(card.pixels.filter { $0 >> 24 == 255 }.count > card.pixels.count * 9 / 10)
        let text = try OCRReadBackTests.read(canvas, pageSegmentation: 6)
        for label in ["Nothing to play", "clip.mp4: no such file", "intro.mov: unsupported codec", "lobby-sign",
                      "192.168.1.20", "marquee 0.9", "14:05"] {
            #expect(text.contains(label), "\(label) not in \(text)")
        }
    }

    @Test func fortyReasonsShowAsManyAsFitThenHowManyMore() throws {
        let reasons = (1...40).map { "item\($0 < 10 ? "0" : "")\($0).mp4: no such file" }
        let text = try OCRReadBackTests.read(try Self.screen(showing: Self.card(reasons: reasons)).0, pageSegmentation: 6)
        let lines = text.split(separator: "\n").map(String.init)
        let shown = lines.filter { $0.contains(".mp4: no such file") }
        let more = try #require(lines.compactMap { line in
            line.firstMatch(of: /and (\d+) more/).flatMap { Int($0.1) }
        }.first, "no \"and N more\" in \(text)")
        // Every reason is either shown or counted, and in order from the first.
        #expect(shown.count + more == 40, "\(text)")
        #expect(shown.count >= 5)
        #expect(shown.first?.contains("item01.mp4") == true)
        // The footer is still there, not overwritten by the list.
        #expect(text.contains("lobby-sign") && text.contains("marquee 0.9"), "\(text)")
    }
}
