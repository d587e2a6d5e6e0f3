import Testing
import MarqueeCore

/// Shortening labels to a pixel width with the real DejaVu backends.
@Suite struct TextFittingTests {
    @Test func textThatFitsIsLeftAlone() throws {
        let renderer = try TestFont.renderer()
        let width = renderer.measure("Harbour Lights", pixelSize: 24).width
        #expect(renderer.ellipsised("Harbour Lights", toWidth: width, pixelSize: 24) == "Harbour Lights")
    }

    @Test func longTextKeepsItsLongestBeginningThatFitsWithAnEllipsis() throws {
        let renderer = try TestFont.renderer()
        let title = "The quick brown fox jumps over the lazy dog"
        for width in [80, 150, 300] {
            let fitted = renderer.ellipsised(title, toWidth: width, pixelSize: 24)
            #expect(fitted.hasSuffix("…"))
            #expect(renderer.measure(fitted, pixelSize: 24).width <= width)
            let kept = String(fitted.dropLast())
            #expect(title.hasPrefix(kept) && !kept.hasSuffix(" "))
            // One more character would not have fitted (or the kept part ended in a space that was dropped).
            let longer = String(title.prefix(kept.count + 1))
            #expect(longer.hasSuffix(" ") || renderer.measure(longer + "…", pixelSize: 24).width > width)
        }
    }

    @Test func tooNarrowForEvenTheEllipsisGivesNothing() throws {
        let renderer = try TestFont.renderer()
        #expect(renderer.ellipsised("Harbour Lights", toWidth: 3, pixelSize: 24) == "")
        #expect(renderer.ellipsised("Harbour Lights", toWidth: -10, pixelSize: 24) == "")
    }
}
