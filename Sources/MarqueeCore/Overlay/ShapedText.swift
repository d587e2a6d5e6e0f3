/// A line of text after shaping: which glyphs to draw, in visual order (left to right on screen,
/// whatever the script's direction), and how far apart. Lengths are in pixels with y growing down,
/// like the overlay they are drawn into.
public struct ShapedText: Hashable, Sendable {
    public struct Glyph: Hashable, Sendable {
        /// The font's glyph index (not a Unicode scalar): what the rasteriser draws.
        public var id: UInt32
        /// Where in the string (UTF-8 byte offset) the characters this glyph draws begin.
        public var cluster: Int
        /// How far the pen moves after this glyph.
        public var xAdvance: Double
        /// How far this glyph is moved from the pen without moving the pen (marks, kerning pairs).
        public var xOffset: Double
        /// Downwards, as on screen (HarfBuzz's is upwards).
        public var yOffset: Double

        public init(id: UInt32, cluster: Int, xAdvance: Double, xOffset: Double = 0, yOffset: Double = 0) {
            self.id = id
            self.cluster = cluster
            self.xAdvance = xAdvance
            self.xOffset = xOffset
            self.yOffset = yOffset
        }
    }

    public enum Direction: Hashable, Sendable {
        case leftToRight, rightToLeft
    }

    public var glyphs: [Glyph]
    /// The direction the shaper read the text in (guessed from its script).
    public var direction: Direction
    /// The em size the text was shaped at.
    public var pixelSize: Int
    public var metrics: FontMetrics

    public init(glyphs: [Glyph], direction: Direction, pixelSize: Int, metrics: FontMetrics) {
        self.glyphs = glyphs
        self.direction = direction
        self.pixelSize = pixelSize
        self.metrics = metrics
    }

    /// The pen's travel across the line: where the next line segment would start.
    public var advanceWidth: Double { glyphs.reduce(0) { $0 + $1.xAdvance } }
}

/// A font's vertical measures at one size, in pixels.
public struct FontMetrics: Hashable, Sendable {
    /// Baseline to the top of the tallest glyphs (positive).
    public var ascender: Double
    /// Baseline to the bottom of the lowest descenders (positive, below the baseline).
    public var descender: Double
    /// Baseline to baseline for consecutive lines: ascender + descender + the font's line gap.
    public var lineHeight: Double

    public init(ascender: Double, descender: Double, lineHeight: Double) {
        self.ascender = ascender
        self.descender = descender
        self.lineHeight = lineHeight
    }
}
