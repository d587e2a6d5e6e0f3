/// Paints the status card: an opaque screen-sized card with the headline large at the top, the
/// reasons one a line below it (as many as fit, then "… and N more"), and at the bottom, under a
/// rule, the hostname, the addresses, and the version with the time at the right.
///
/// Text sizes follow the screen height (headline a 14th, the rest a 30th), so the card reads the
/// same from across the room on any screen. Not thread-safe, like the `TextRenderer` it draws with.
public final class StatusCardPainter {
    /// Dark blue-grey: plainly "the sign is talking", not a black screen or a video frame.
    public var backgroundColor = OverlayColor(red: 24, green: 32, blue: 48)
    public var headlineColor = OverlayColor.white
    public var reasonColor = OverlayColor(red: 225, green: 230, blue: 238)
    public var footerColor = OverlayColor(red: 170, green: 182, blue: 200)

    private let text: TextRenderer

    public init(text: TextRenderer) {
        self.text = text
    }

    /// The card filling `size`, the upright screen.
    public func paint(_ content: StatusCardContent, size: PixelSize) throws(FontError) -> OverlayImage {
        var image = OverlayImage(size: size)
        guard !size.isEmpty else { return image }
        image.fill(PixelRect(size: size), with: backgroundColor)

        let headlineSize = max(8, size.height / 14), bodySize = max(6, size.height / 30)
        let marginX = max(bodySize, size.width / 16)
        let textWidth = size.width - 2 * marginX
        let headline = text.measure(content.headline, pixelSize: headlineSize)
        let headlineBaseline = max(bodySize, size.height / 10) + headline.ascent
        try text.draw(text.ellipsised(content.headline, toWidth: textWidth, pixelSize: headlineSize),
                      pixelSize: headlineSize, color: headlineColor, into: &image, x: marginX, baseline: headlineBaseline)

        let line = text.measure("0", pixelSize: bodySize)
        // The footer's three lines end a margin above the bottom edge.
        let lastBaseline = size.height - max(bodySize, size.height / 12) - line.descent
        let footerTop = lastBaseline - 2 * line.lineHeight - line.ascent
        try paintFooter(content, lastBaseline: lastBaseline, lineHeight: line.lineHeight, pixelSize: bodySize,
                        marginX: marginX, into: &image)
        let ruleThickness = max(1, size.height / 540)
        image.fill(PixelRect(x: marginX, y: footerTop - bodySize / 2 - ruleThickness, width: textWidth, height: ruleThickness),
                   with: OverlayColor(red: footerColor.red, green: footerColor.green, blue: footerColor.blue, alpha: 100))

        let firstReasonBaseline = headlineBaseline + headline.descent + bodySize + line.ascent
        let lastAllowedBaseline = footerTop - bodySize - line.descent
        let capacity = lastAllowedBaseline < firstReasonBaseline
            ? 0 : (lastAllowedBaseline - firstReasonBaseline) / line.lineHeight + 1
        for (number, reason) in Self.reasonLines(content.reasons, capacity: capacity).enumerated() {
            try text.draw(text.ellipsised(reason, toWidth: textWidth, pixelSize: bodySize), pixelSize: bodySize,
                          color: reasonColor, into: &image, x: marginX,
                          baseline: firstReasonBaseline + number * line.lineHeight)
        }
        return image
    }

    /// All the reasons when they fit in `capacity` lines; otherwise as many as fit with the last
    /// line saying how many were left out, so nobody takes a partial list for the whole story.
    static func reasonLines(_ reasons: [String], capacity: Int) -> [String] {
        guard reasons.count > capacity else { return reasons }
        guard capacity > 0 else { return [] }
        let shown = capacity - 1
        return Array(reasons.prefix(shown)) + ["\(TextRenderer.ellipsis) and \(reasons.count - shown) more"]
    }

    private func paintFooter(_ content: StatusCardContent, lastBaseline: Int, lineHeight: Int, pixelSize: Int,
                             marginX: Int, into image: inout OverlayImage) throws(FontError) {
        let textWidth = image.size.width - 2 * marginX
        let addresses = content.addresses.isEmpty ? "No network address" : content.addresses.joined(separator: "   ")
        let lines = [content.hostname, addresses]
        for (number, line) in lines.enumerated() {
            try text.draw(text.ellipsised(line, toWidth: textWidth, pixelSize: pixelSize), pixelSize: pixelSize,
                          color: footerColor, into: &image, x: marginX,
                          baseline: lastBaseline - (lines.count - number) * lineHeight)
        }
        let timeWidth = text.measure(content.time, pixelSize: pixelSize).width
        try text.draw(content.time, pixelSize: pixelSize, color: footerColor, into: &image,
                      x: image.size.width - marginX - timeWidth, baseline: lastBaseline)
        let versionWidth = textWidth - timeWidth - pixelSize
        try text.draw(text.ellipsised(content.version, toWidth: versionWidth, pixelSize: pixelSize), pixelSize: pixelSize,
                      color: footerColor, into: &image, x: marginX, baseline: lastBaseline)
    }
}
