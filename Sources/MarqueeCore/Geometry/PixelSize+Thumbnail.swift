extension PixelSize {
    /// The size of a thumbnail at most `width` pixels wide with this picture's shape: never wider
    /// than the picture (enlarging would only make a larger file of the same detail), at least one
    /// pixel high, the height rounded to the nearest pixel.
    public func thumbnail(width: Int) -> PixelSize {
        guard !isEmpty, width > 0, width < self.width else { return self }
        let height = (Double(self.height) * Double(width) / Double(self.width)).rounded()
        return PixelSize(width: width, height: max(1, Int(height)))
    }
}
