/// The box a line of text is laid out in, in whole pixels (rounded outwards): what the OSD sizes
/// its panel and places its labels with.
public struct TextMeasurement: Hashable, Sendable {
    /// The pen's travel across the line.
    public var width: Int
    /// Above the baseline.
    public var ascent: Int
    /// Below the baseline.
    public var descent: Int
    /// Baseline to baseline.
    public var lineHeight: Int

    public init(width: Int, ascent: Int, descent: Int, lineHeight: Int) {
        self.width = width
        self.ascent = ascent
        self.descent = descent
        self.lineHeight = lineHeight
    }

    public init(_ shaped: ShapedText) {
        self.init(width: Int(shaped.advanceWidth.rounded(.up)), ascent: Int(shaped.metrics.ascender.rounded(.up)),
                  descent: Int(shaped.metrics.descender.rounded(.up)), lineHeight: Int(shaped.metrics.lineHeight.rounded(.up)))
    }

    public var height: Int { ascent + descent }

    /// The layout box of a line whose pen starts at `x` on the baseline `baseline`.
    public func box(x: Int, baseline: Int) -> PixelRect {
        PixelRect(x: x, y: baseline - ascent, width: width, height: height)
    }
}
