import Testing
import MarqueeCore
import MarqueeMedia

/// The OSD painted with the real DejaVu backends: tesseract reads its labels back from a 720p
/// screen, and its geometry (rows, bar fill, width) is checked on the pixels.
@Suite struct OSDPainterTests {
    static let content = OSDContent(state: .paused, title: "Harbour Lights", index: 2, count: 12,
                                    positionLabel: "1:23", durationLabel: "4:56", remainingLabel: "-3:33",
                                    progress: 83.0 / 296, repeatMode: "all", numericEntry: "12")

    /// The OSD as a player would show it: 60 % of a black 1280x720 screen's width, text a 30th of its
    /// height, near the bottom.
    static func screen(showing content: OSDContent) throws -> (Canvas, OverlayImage) {
        let overlay = try OSDPainter(text: try TestFont.renderer()).paint(content, width: 768, pixelSize: 24)
        let canvas = Canvas(size: PixelSize(width: 1280, height: 720))
        _ = canvas.withPixelBuffer { pixels in
            pixels.blend(overlay, x: (1280 - overlay.size.width) / 2, y: 720 - overlay.size.height - 40)
        }
        return (canvas, overlay)
    }

    /// The longest run of fully opaque white pixels in any row: the filled part of a bar (text is
    /// never that wide, and the track and the panel are translucent).
    static func longestWhiteRun(in image: OverlayImage) -> Int {
        var longest = 0
        for y in 0..<image.size.height {
            var run = 0
            for x in 0..<image.size.width {
                run = image[x, y] == 0xFFFF_FFFF ? run + 1 : 0
                longest = max(longest, run)
            }
        }
        return longest
    }

    @Test func tesseractReadsEveryLabelBack() throws {
        let text = try OCRReadBackTests.read(try Self.screen(showing: Self.content).0, pageSegmentation: 11)
        for label in ["Harbour Lights", "3/12", "1:23 / 4:56", "-3:33", "Repeat: all"] {
            #expect(text.contains(label), "\(label) not in \(text)")
        }
        // tesseract reads the spaced digits "1 2 _" as "12_" or "12 _": compare without spaces there.
        #expect(text.filter { $0 != " " }.contains("Gotoitem12_"), "\(text)")
    }

    @Test func aShowSetWithoutTheTitleLeavesItOut() throws {
        var content = Self.content
        content.show.remove(.title)
        let text = try OCRReadBackTests.read(try Self.screen(showing: content).0, pageSegmentation: 11)
        #expect(!text.contains("Harbour"), "\(text)")
        #expect(!text.contains("Lights"), "\(text)")
        #expect(text.contains("3/12"), "\(text)")
    }

    @Test func thePanelGrowsByARowWhenRowThreeHasSomethingToSay() throws {
        let painter = OSDPainter(text: try TestFont.renderer())
        var quiet = Self.content
        quiet.repeatMode = "off"
        quiet.numericEntry = nil
        let twoRows = try painter.paint(quiet, width: 768, pixelSize: 24).size.height
        var repeating = quiet
        repeating.repeatMode = "all"
        let threeRows = try painter.paint(repeating, width: 768, pixelSize: 24).size.height
        #expect(twoRows > 2 * 24)
        #expect(threeRows - twoRows >= 24 && threeRows - twoRows < twoRows / 2 + 24)
        // Everything row 3 can say does not fit beside itself in a narrow panel: it wraps.
        var busy = repeating
        busy.volume = 0.4
        busy.numericEntry = "12"
        busy.pauseAfterItem = true
        #expect(try painter.paint(busy, width: 500, pixelSize: 24).size.height > threeRows)
        // Nothing shown, nothing painted.
        var nothing = Self.content
        nothing.show = []
        #expect(try painter.paint(nothing, width: 768, pixelSize: 24).size.height == 0)
    }

    /// Muted, the OSD says so whatever brought it up: a key other than a volume key shows the
    /// panel with no volume set, and "Muted" is still on row 3.
    @Test func mutedIsSaidEvenWhenNoVolumeWasSet() throws {
        var content = Self.content
        content.repeatMode = "off"
        content.numericEntry = nil
        content.volume = nil
        content.muted = true
        let text = try OCRReadBackTests.read(try Self.screen(showing: content).0, pageSegmentation: 11)
        #expect(text.contains("Muted"), "\(text)")
        let painter = OSDPainter(text: try TestFont.renderer())
        content.muted = false
        let unmuted = try painter.paint(content, width: 768, pixelSize: 24).size.height
        content.muted = true
        #expect(try painter.paint(content, width: 768, pixelSize: 24).size.height > unmuted, "no row 3 for Muted")
    }

    @Test func theProgressBarIsFilledInProportionToProgress() throws {
        let painter = OSDPainter(text: try TestFont.renderer())
        func filled(_ progress: Double?, show: Set<OSDElement>) throws -> Int {
            var content = Self.content
            content.progress = progress
            content.show = show
            return Self.longestWhiteRun(in: try painter.paint(content, width: 600, pixelSize: 24))
        }
        let barOnly: Set<OSDElement> = [.progress]
        let track = try filled(1, show: barOnly)
        #expect(track > 500 && track < 600)
        for fraction in [0.25, 0.5, 0.8] {
            #expect(abs(Double(try filled(fraction, show: barOnly)) - fraction * Double(track)) <= 1)
        }
        #expect(try filled(0, show: barOnly) == 0)
        #expect(try filled(nil, show: barOnly) == 0)
        // Between the time labels the bar is shorter, and still filled in proportion.
        let timeline: Set<OSDElement> = [.time, .progress, .remaining]
        let between = try filled(1, show: timeline)
        #expect(between < track - 100)
        #expect(abs(Double(try filled(0.5, show: timeline)) - 0.5 * Double(between)) <= 1)
    }

    @Test func aLongTitleIsEllipsisedWithinTheWidth() throws {
        let renderer = try TestFont.renderer()
        let painter = OSDPainter(text: renderer)
        var content = Self.content
        content.title = String(repeating: "A very long title that goes on ", count: 8)
        for width in [300, 500, 768] {
            let image = try painter.paint(content, width: width, pixelSize: 24)
            #expect(image.size.width == width)
            // No text reaches into the right-hand padding: only the panel (65 % black) is there.
            let panelAlpha = image.alpha(x: width / 2, y: 2)
            for y in 0..<image.size.height {
                for x in (width - 10)..<width {
                    #expect(image.alpha(x: x, y: y) <= panelAlpha)
                }
            }
        }
        let text = try OCRReadBackTests.read(try Self.screen(showing: content).0, pageSegmentation: 11)
        #expect(text.contains("A very long title"), "\(text)")
        #expect(text.contains("3/12"), "\(text)")
    }
}
