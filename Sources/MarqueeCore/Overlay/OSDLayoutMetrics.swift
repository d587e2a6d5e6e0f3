/// The OSD's measures at one text size, all in whole pixels: padding, row pitch, bar thickness.
/// Derived from the font's own metrics, so another `osd.font` keeps the proportions.
struct OSDLayoutMetrics {
    let pixelSize: Int
    let width: Int
    /// Baseline to the top of a capital: the state glyph's height and the line bars are centred on.
    let capHeight: Int
    let ascent: Int
    let rowHeight: Int
    /// Panel edge to text.
    let padding: Int
    /// Between rows.
    let rowGap: Int
    /// Between a label and what follows it on a row.
    let spacing: Int
    /// Between the time labels and the progress bar: wide, so neither a reader nor OCR runs the
    /// bar into the digits (at one em, tesseract read "4:56" and the bar as "456 ——").
    let timelineGap: Int
    /// Between row 3's items.
    let itemGap: Int
    let barThickness: Int
    let volumeBarWidth: Int
    let cornerRadius: Int

    init(text: TextRenderer, pixelSize requested: Int, width: Int) throws(FontError) {
        let size = max(1, requested)
        let line = text.measure("0", pixelSize: size)
        pixelSize = size
        self.width = width
        capHeight = max(1, try text.inkBounds(of: text.shape("H", pixelSize: size)).height)
        ascent = line.ascent
        rowHeight = line.height
        padding = max(2, size * 3 / 5)
        rowGap = max(1, size / 3)
        spacing = max(2, size / 2)
        timelineGap = max(4, size * 7 / 4)
        itemGap = max(4, size * 3 / 2)
        barThickness = max(2, size * 2 / 5)
        volumeBarWidth = size * 5
        cornerRadius = size / 2
    }

    var contentWidth: Int { width - 2 * padding }

    func panelHeight(rows: Int) -> Int {
        2 * padding + rows * rowHeight + max(0, rows - 1) * rowGap
    }

    func baseline(ofRow row: Int) -> Int {
        padding + row * (rowHeight + rowGap) + ascent
    }

    /// A bar from `x`, `width` wide, centred on the capitals of the line on `baseline`.
    func barRect(x: Int, width: Int, baseline: Int) -> PixelRect {
        PixelRect(x: x, y: baseline - (capHeight + barThickness) / 2, width: width, height: barThickness)
    }
}
