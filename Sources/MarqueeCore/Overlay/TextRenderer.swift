/// Lays shaped text out and draws it into overlay images, keeping every glyph it rasterised so a
/// label redrawn each second (a clock, a position) rasterises only the glyphs it has not met yet.
///
/// Not thread-safe: it belongs to the one thread that draws the OSD, as do the backends it holds.
public final class TextRenderer {
    private struct GlyphKey: Hashable {
        let id: UInt32
        let pixelSize: Int
    }

    private let shaper: any TextShaping
    private let bidi: (any BidiLeveling)?
    private let rasterizer: any GlyphRasterizing
    private let cacheLimit: Int
    private var cache: [GlyphKey: GlyphBitmap] = [:]

    /// How many glyphs were rasterised so far: cache misses. Tests and the OSD's diagnostics read it.
    public private(set) var rasterizationCount = 0
    public var cachedGlyphCount: Int { cache.count }

    /// `shaper` and `rasterizer` must have opened the same font file. `bidi` orders the runs of a
    /// line that mixes directions; without it a line is shaped in one direction. `cacheLimit`
    /// bounds memory for titles in many scripts: when full, the cache starts over rather than
    /// tracking use.
    public init(shaper: any TextShaping, rasterizer: any GlyphRasterizing, bidi: (any BidiLeveling)? = nil,
                cacheLimit: Int = 4096) {
        self.shaper = shaper
        self.bidi = bidi
        self.rasterizer = rasterizer
        self.cacheLimit = max(1, cacheLimit)
    }

    /// `text` shaped as one line in visual order. A line of one direction is shaped whole; a mixed
    /// one ("Menu قائمة 2026") run by run, each run in its own direction, the runs placed as the
    /// bidi algorithm orders them.
    public func shape(_ text: String, pixelSize: Int) -> ShapedText {
        // Nothing below U+0590 (where Hebrew starts) is right-to-left: Latin titles skip the bidi pass.
        guard let bidi, text.unicodeScalars.contains(where: { $0.value >= 0x0590 }),
              let resolved = bidi.levels(of: text.unicodeScalars.map(\.value)) else {
            return shaper.shape(text, pixelSize: pixelSize)
        }
        let runs = BidiRun.visualOrder(of: text, levels: resolved.levels)
        guard runs.count > 1 else { return shaper.shape(text, pixelSize: pixelSize) }
        let pieces = runs.map { shaper.shape(text, run: $0, pixelSize: pixelSize) }
        return ShapedText(glyphs: pieces.flatMap(\.glyphs), direction: resolved.paragraph,
                          pixelSize: pixelSize, metrics: pieces[0].metrics)
    }

    public func measure(_ text: String, pixelSize: Int) -> TextMeasurement {
        TextMeasurement(shape(text, pixelSize: pixelSize))
    }

    /// Draws `text` in `color` with its pen starting at `x` on the baseline `baseline`; returns the
    /// line's layout box. Glyphs outside the image are clipped.
    @discardableResult
    public func draw(_ text: String, pixelSize: Int, color: OverlayColor, into image: inout OverlayImage,
                     x: Int, baseline: Int) throws(FontError) -> TextMeasurement {
        let shaped = shape(text, pixelSize: pixelSize)
        try draw(shaped, color: color, into: &image, x: x, baseline: baseline)
        return TextMeasurement(shaped)
    }

    /// Draws already shaped text (shape once, draw often).
    public func draw(_ shaped: ShapedText, color: OverlayColor, into image: inout OverlayImage,
                     x: Int, baseline: Int) throws(FontError) {
        try forEachPlacedGlyph(of: shaped, x: x, baseline: baseline) { bitmap, left, top in
            image.draw(bitmap, color: color, x: left, y: top)
        }
    }

    /// The pixels the glyphs actually ink, relative to a pen at (0, 0) on the baseline; empty for
    /// blank text. It can reach past the layout box (an italic overhang, a deep accent).
    public func inkBounds(of shaped: ShapedText) throws(FontError) -> PixelRect {
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        try forEachPlacedGlyph(of: shaped, x: 0, baseline: 0) { bitmap, left, top in
            guard bitmap.width > 0, bitmap.height > 0 else { return }
            minX = min(minX, left)
            minY = min(minY, top)
            maxX = max(maxX, left + bitmap.width)
            maxY = max(maxY, top + bitmap.height)
        }
        guard minX <= maxX else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        return PixelRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// Walks the glyphs in the shaper's visual order, handing each bitmap with its top-left corner.
    private func forEachPlacedGlyph(of shaped: ShapedText, x: Int, baseline: Int,
                                    _ body: (GlyphBitmap, _ left: Int, _ top: Int) -> Void) throws(FontError) {
        var pen = Double(x)
        for glyph in shaped.glyphs {
            let bitmap = try bitmap(for: glyph.id, pixelSize: shaped.pixelSize)
            // Glyphs are rasterised at a whole-pixel origin, so the origin is rounded, not the pen:
            // rounding errors do not add up along the line.
            let originX = Int((pen + glyph.xOffset).rounded())
            let originY = baseline + Int(glyph.yOffset.rounded())
            body(bitmap, originX + bitmap.left, originY - bitmap.top)
            pen += glyph.xAdvance
        }
    }

    private func bitmap(for id: UInt32, pixelSize: Int) throws(FontError) -> GlyphBitmap {
        let key = GlyphKey(id: id, pixelSize: pixelSize)
        if let cached = cache[key] { return cached }
        let bitmap = try rasterizer.rasterize(glyph: id, pixelSize: pixelSize)
        rasterizationCount += 1
        if cache.count >= cacheLimit { cache.removeAll(keepingCapacity: true) }
        cache[key] = bitmap
        return bitmap
    }
}
