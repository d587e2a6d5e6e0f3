import Foundation
import Logging
import MarqueeCore
import MarqueeFreeType
import MarqueeFriBidi
import MarqueeHarfBuzz
import MarqueePlayer
import MarqueeSession

/// Builds the on-screen display from `osd:`: FriBidi orders mixed-direction titles, HarfBuzz shapes
/// and FreeType rasterises with the config's font (DejaVu Sans by default). A font that cannot be used is one warning, and playback
/// goes on without the labels and the card.
enum OnScreenDisplayFactory {
    static func make(_ settings: OSDSettings, logger: Logger) -> OnScreenDisplay? {
        guard settings.enabled || settings.statusCard else { return nil }
        let font = settings.font ?? OSDSettings.defaultFont
        do {
            let text = TextRenderer(shaper: try HarfBuzzTextShaper(fontPath: font),
                                    rasterizer: try FreeTypeGlyphRasterizer(fontPath: font),
                                    bidi: FriBidiLeveling())
            let formatter = DateFormatter()
            formatter.dateFormat = "yyyy-MM-dd HH:mm"
            nonisolated(unsafe) let shared = formatter
            return OnScreenDisplay(settings: settings, painter: OSDPainter(text: text), cardPainter: StatusCardPainter(text: text),
                                   version: "marquee \(Marquee.version)", deviceFacts: { DeviceFacts.read() },
                                   clockTime: { shared.string(from: Date()) },
                                   reportError: { [logger] in logger.error("\($0)") })
        } catch {
            logger.warning("osd: \(error); the on-screen display and the status card are off")
            return nil
        }
    }
}
