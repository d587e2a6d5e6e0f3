extension TextRenderer {
    /// The ellipsis that marks a shortened label.
    public static let ellipsis = "…"

    /// `text` if it fits in `maxWidth` pixels at `pixelSize`; otherwise its longest beginning (whole
    /// characters, trailing spaces dropped) followed by "…" that fits; "" when not even "…" fits.
    /// Titles are cut at their end in reading order, so a right-to-left title loses its last words too.
    public func ellipsised(_ text: String, toWidth maxWidth: Int, pixelSize: Int) -> String {
        if measure(text, pixelSize: pixelSize).width <= maxWidth { return text }
        let characters = Array(text)
        func candidate(keeping count: Int) -> String {
            String(characters[..<count]).trimmingTrailingSpaces() + Self.ellipsis
        }
        func fits(_ count: Int) -> Bool { measure(candidate(keeping: count), pixelSize: pixelSize).width <= maxWidth }
        guard fits(0) else { return "" }
        // Widths grow with the characters kept (shaping can nudge that by a pixel; a binary search
        // may then keep one character fewer than possible, which is harmless), so search rather than
        // measure every prefix of a long title.
        var fitting = 0, tooLong = characters.count
        while tooLong - fitting > 1 {
            let middle = (fitting + tooLong) / 2
            if fits(middle) { fitting = middle } else { tooLong = middle }
        }
        return candidate(keeping: fitting)
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var trimmed = Substring(self)
        while let last = trimmed.last, last.isWhitespace { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }
}
