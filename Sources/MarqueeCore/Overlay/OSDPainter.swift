/// Lays an `OSDContent` out on a translucent rounded panel and paints it, white on dark, so it
/// reads over any video:
///
///     ▶  Title of the item…                          3/12
///     1:23 / 4:56  [=========-------------------]    -3:33
///     Repeat: all    Volume [=====---] 65%    Go to item 1 2 _    Pause after this item
///
/// The first two rows appear when any of their elements is shown; the third holds whatever of
/// repeat, volume, numeric entry and "pause after" has something to say, and wraps onto more rows
/// when they do not fit. The panel is exactly as tall as its rows: nothing shown, nothing painted.
///
/// Sizes derive from `pixelSize`, the text's em size, so the caller scales the whole OSD with it.
/// Not thread-safe, like the `TextRenderer` it draws with.
public final class OSDPainter {
    /// Black at 65 %: white text stays legible over white video, and the picture still shows through.
    public var panelColor = OverlayColor(.black, opacity: 0.65)
    public var textColor = OverlayColor.white
    /// The unfilled part of a bar: visible on the panel without competing with the fill.
    public var trackColor = OverlayColor(RGBColor(red: 255, green: 255, blue: 255), opacity: 0.3)

    private let text: TextRenderer

    public init(text: TextRenderer) {
        self.text = text
    }

    /// The panel, `width` pixels wide (the caller's share of the upright screen), with text at an em
    /// size of `pixelSize` (about a 30th of the screen height reads well from a distance).
    public func paint(_ content: OSDContent, width: Int, pixelSize: Int) throws(FontError) -> OverlayImage {
        progressBarRect = nil
        let layout = try OSDLayoutMetrics(text: text, pixelSize: pixelSize, width: width)
        let extras = wrapped(extraItems(of: content, metrics: layout), within: layout.contentWidth, metrics: layout)
        var rows: [OSDRow] = []
        if hasHeader(content) { rows.append(.header) }
        if content.show.contains(.time) || content.show.contains(.remaining) || content.show.contains(.progress) {
            rows.append(.timeline)
        }
        rows += extras.map(OSDRow.extras)
        guard !rows.isEmpty else { return OverlayImage(size: PixelSize(width: max(0, width), height: 0)) }

        var image = OverlayImage(size: PixelSize(width: max(0, width), height: layout.panelHeight(rows: rows.count)))
        image.fill(PixelRect(size: image.size), with: panelColor, cornerRadius: layout.cornerRadius)
        for (number, row) in rows.enumerated() {
            let baseline = layout.baseline(ofRow: number)
            switch row {
            case .header: try paintHeader(content, baseline: baseline, metrics: layout, into: &image)
            case .timeline: try paintTimeline(content, baseline: baseline, metrics: layout, into: &image)
            case .extras(let items): try paintExtras(items, baseline: baseline, metrics: layout, into: &image)
            }
        }
        return image
    }

    /// Where the last `paint` put the progress bar's track in its image (nil: none shown), so a
    /// caller can paint the bar's fill on its own as playback moves, not the whole panel.
    public private(set) var progressBarRect: PixelRect?

    private enum OSDRow {
        case header, timeline, extras([OSDExtraItem])
    }

    private func hasHeader(_ content: OSDContent) -> Bool {
        content.show.contains(.state) || (content.show.contains(.title) && !content.title.isEmpty)
            || (content.show.contains(.index) && content.count > 0)
    }

    // MARK: Row 1: state, title, index

    private func paintHeader(_ content: OSDContent, baseline: Int, metrics: OSDLayoutMetrics,
                             into image: inout OverlayImage) throws(FontError) {
        var left = metrics.padding, right = image.size.width - metrics.padding
        if content.show.contains(.state) {
            let side = metrics.capHeight
            OSDStateGlyph.draw(content.state, in: PixelRect(x: left, y: baseline - side, width: side, height: side),
                               color: textColor, into: &image)
            left += side + metrics.spacing
        }
        if content.show.contains(.index), content.count > 0 {
            let label = "\(content.index + 1)/\(content.count)"
            let width = text.measure(label, pixelSize: metrics.pixelSize).width
            try text.draw(label, pixelSize: metrics.pixelSize, color: textColor, into: &image, x: right - width, baseline: baseline)
            right -= width + metrics.spacing * 2
        }
        if content.show.contains(.title), !content.title.isEmpty {
            // A title is one line: a line break in a file's metadata must not stack glyphs.
            let oneLine = content.title.split(whereSeparator: \.isNewline).joined(separator: " ")
            let fitted = text.ellipsised(oneLine, toWidth: right - left, pixelSize: metrics.pixelSize)
            try text.draw(fitted, pixelSize: metrics.pixelSize, color: textColor, into: &image, x: left, baseline: baseline)
        }
    }

    // MARK: Row 2: position / duration, progress bar, remaining

    private func paintTimeline(_ content: OSDContent, baseline: Int, metrics: OSDLayoutMetrics,
                               into image: inout OverlayImage) throws(FontError) {
        var left = metrics.padding, right = image.size.width - metrics.padding
        let gap = metrics.timelineGap
        if content.show.contains(.time) {
            let label = "\(content.positionLabel) / \(content.durationLabel)"
            left += try text.draw(label, pixelSize: metrics.pixelSize, color: textColor, into: &image,
                                  x: left, baseline: baseline).width + gap
        }
        if content.show.contains(.remaining) {
            let width = text.measure(content.remainingLabel, pixelSize: metrics.pixelSize).width
            try text.draw(content.remainingLabel, pixelSize: metrics.pixelSize, color: textColor, into: &image,
                          x: right - width, baseline: baseline)
            right -= width + gap
        }
        if content.show.contains(.progress), right > left {
            let bar = metrics.barRect(x: left, width: right - left, baseline: baseline)
            progressBarRect = bar
            paintBar(in: bar, fraction: content.progress, into: &image)
        }
    }

    /// A track the full width of `rect`, filled from the left by `fraction`; just the track when the
    /// fraction is unknown (a live stream).
    private func paintBar(in rect: PixelRect, fraction: Double?, into image: inout OverlayImage) {
        // Square ends: the fill's left end is square, and would stick out of a rounded track.
        image.fill(rect, with: trackColor)
        if let fraction { image.fill(rect, leftFraction: fraction, with: textColor) }
    }

    // MARK: Row 3 and on: repeat, volume, numeric entry, pause after this item

    private enum OSDExtraItem {
        case label(String)
        case volume(fraction: Double?, label: String)
    }

    private func extraItems(of content: OSDContent, metrics: OSDLayoutMetrics) -> [OSDExtraItem] {
        var items: [OSDExtraItem] = []
        if content.show.contains(.buffering), let seconds = content.bufferingSeconds {
            items.append(.label("Buffering \(seconds) s"))
        }
        // "off" is the usual state: saying so on every key press would be noise.
        if content.show.contains(.repeatMode), let label = Self.repeatLabel(content.repeatMode) {
            items.append(.label(label))
        }
        if content.show.contains(.volume), content.volume != nil || content.muted {
            let percent = Int((min(1, max(0, content.volume ?? 0)) * 100).rounded())
            items.append(.volume(fraction: content.volume, label: content.muted ? "Muted" : "\(percent)%"))
        }
        if content.show.contains(.numericEntry), let digits = content.numericEntry {
            items.append(.label(Self.numericEntryLabel(digits)))
        }
        if content.show.contains(.pauseAfterItem), content.pauseAfterItem {
            items.append(.label("Pause after this item"))
        }
        return items
    }

    /// "Repeat: one", "Repeat: all", "Shuffle"; nil for "off" (or nothing).
    static func repeatLabel(_ mode: String) -> String? {
        switch mode.lowercased() {
        case "", "off": nil
        case "shuffle": "Shuffle"
        default: "Repeat: \(mode)"
        }
    }

    /// "Go to item 1 2 _": the digits spaced out so each one reads on its own, and a cursor for the next.
    static func numericEntryLabel(_ digits: String) -> String {
        (["Go to item"] + digits.map(String.init) + ["_"]).joined(separator: " ")
    }

    private func width(of item: OSDExtraItem, metrics: OSDLayoutMetrics) -> Int {
        switch item {
        case .label(let label):
            text.measure(label, pixelSize: metrics.pixelSize).width
        case .volume(_, let label):
            text.measure("Volume", pixelSize: metrics.pixelSize).width + metrics.volumeBarWidth + metrics.spacing * 2
                + text.measure(label, pixelSize: metrics.pixelSize).width
        }
    }

    /// The items in rows, each row as many as fit side by side (at least one, shortened when drawn).
    private func wrapped(_ items: [OSDExtraItem], within width: Int, metrics: OSDLayoutMetrics) -> [[OSDExtraItem]] {
        var rows: [[OSDExtraItem]] = [], current: [OSDExtraItem] = [], used = 0
        for item in items {
            let itemWidth = self.width(of: item, metrics: metrics)
            let needed = current.isEmpty ? itemWidth : used + metrics.itemGap + itemWidth
            if !current.isEmpty, needed > width {
                rows.append(current)
                current = [item]
                used = itemWidth
            } else {
                current.append(item)
                used = needed
            }
        }
        if !current.isEmpty { rows.append(current) }
        return rows
    }

    private func paintExtras(_ items: [OSDExtraItem], baseline: Int, metrics: OSDLayoutMetrics,
                             into image: inout OverlayImage) throws(FontError) {
        var left = metrics.padding
        let right = image.size.width - metrics.padding
        for item in items {
            switch item {
            case .label(let label):
                let fitted = text.ellipsised(label, toWidth: right - left, pixelSize: metrics.pixelSize)
                left += try text.draw(fitted, pixelSize: metrics.pixelSize, color: textColor, into: &image,
                                      x: left, baseline: baseline).width
            case .volume(let fraction, let label):
                left += try text.draw("Volume", pixelSize: metrics.pixelSize, color: textColor, into: &image,
                                      x: left, baseline: baseline).width + metrics.spacing
                paintBar(in: metrics.barRect(x: left, width: metrics.volumeBarWidth, baseline: baseline),
                         fraction: fraction ?? 0, into: &image)
                left += metrics.volumeBarWidth + metrics.spacing
                left += try text.draw(label, pixelSize: metrics.pixelSize, color: textColor, into: &image,
                                      x: left, baseline: baseline).width
            }
            left += metrics.itemGap
        }
    }
}
