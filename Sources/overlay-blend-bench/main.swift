// Prints how long blending an OSD-sized overlay (1280x200) into a 1080p XRGB buffer takes, at full
// opacity, mid-fade and turned for a portrait screen. Not a test: timings belong in reports, not
// in assertions that fail on a busy machine. Run: Scripts/overlay-blend-bench.sh
import Foundation
import MarqueeCore

let screen = PixelSize(width: 1920, height: 1080)
let canvas = Canvas(size: screen, background: RGBColor(red: 40, green: 90, blue: 160))
var overlay = OverlayImage(size: PixelSize(width: 1280, height: 200))
// Like the OSD: a translucent rounded panel, an opaque progress bar, and glyph-like partial coverage.
overlay.fill(PixelRect(x: 0, y: 0, width: 1280, height: 200), with: OverlayColor(.black, opacity: 0.6), cornerRadius: 24)
overlay.fill(PixelRect(x: 40, y: 150, width: 1200, height: 16), leftFraction: 0.4, with: .white)
let stripes = GlyphBitmap(width: 600, height: 60, left: 0, top: 0,
                          coverage: (0..<(600 * 60)).map { UInt8(truncatingIfNeeded: ($0 % 600) * 7) })
overlay.draw(stripes, color: .white, x: 40, y: 40)

let iterations = 200
@MainActor func measure(_ label: String, opacity: Double, rotation: Rotation) {
    let upright = screen.rotated(by: rotation)
    let x = (upright.width - overlay.size.width) / 2, y = upright.height - overlay.size.height - 40
    let clock = ContinuousClock()
    let elapsed = canvas.withPixelBuffer { buffer in
        clock.measure {
            for _ in 0..<iterations { buffer.blend(overlay, x: x, y: y, opacity: opacity, turnedClockwise: rotation) }
        }
    }
    let perBlend = elapsed / iterations
    let milliseconds = Double(perBlend.components.attoseconds) / 1e15 + Double(perBlend.components.seconds) * 1000
    print("\(label): \(String(format: "%.3f", milliseconds)) ms per blend (\(iterations) blends)")
}

measure("1280x200 into 1920x1080, opacity 1.0", opacity: 1, rotation: .none)
measure("1280x200 into 1920x1080, opacity 0.5", opacity: 0.5, rotation: .none)
measure("1280x200 into 1920x1080 turned 90, opacity 1.0", opacity: 1, rotation: .clockwise90)
