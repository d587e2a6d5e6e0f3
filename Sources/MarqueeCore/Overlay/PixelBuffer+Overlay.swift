extension PixelBuffer {
    /// Blends `overlay` onto the picture with its top-left at (x, y), faded by `opacity` (0...1),
    /// touching only the pixels under it (clipped to the buffer). Returns the rectangle of the buffer
    /// it covers, to redraw or damage (a zero rect at the origin when none of it is visible).
    ///
    /// `rotation` is the clockwise turn the picture in this buffer was given in software for a
    /// screen mounted on its side (`display.rotation`). (x, y) is then in the upright picture, whose
    /// size is `size.rotated(by: rotation)`, and the overlay is turned with the picture, so a viewer
    /// of the turned screen reads it upright.
    ///
    /// Integer arithmetic only and no allocation: it runs on the present thread every frame.
    @discardableResult
    public func blend(_ overlay: OverlayImage, x: Int, y: Int, opacity: Double = 1,
                      turnedClockwise rotation: Rotation = .none) -> PixelRect {
        let source = overlay.size
        let upright = size.rotated(by: rotation)
        let placed = PixelRect(x: x, y: y, width: source.width, height: source.height).rotated(rotation, within: upright)
        let x0 = max(0, placed.x), y0 = max(0, placed.y)
        let x1 = min(size.width, placed.maxX), y1 = min(size.height, placed.maxY)
        let clampedOpacity = min(1, max(0, opacity.isNaN ? 0 : opacity))
        let factor = UInt32((clampedOpacity * 256).rounded())
        let covered = x0 < x1 && y0 < y1 ? PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : PixelRect(x: 0, y: 0, width: 0, height: 0)
        guard !covered.isEmpty, factor > 0 else { return covered }

        // Which overlay pixel lands on the placed rect's top-left, and how the overlay index moves
        // for one step right and one step down in the buffer (the inverse of the quarter turn).
        let w = source.width, h = source.height
        let (origin, stepRight, stepDown): (Int, Int, Int)
        switch rotation {
        case .none: (origin, stepRight, stepDown) = (0, 1, w)
        case .clockwise90: (origin, stepRight, stepDown) = ((h - 1) * w, -w, 1)
        case .upsideDown: (origin, stepRight, stepDown) = (h * w - 1, -1, -w)
        case .clockwise270: (origin, stepRight, stepDown) = (w - 1, w, -1)
        }
        let start = origin + (x0 - placed.x) * stepRight + (y0 - placed.y) * stepDown

        overlay.pixels.withUnsafeBufferPointer { pixels in
            let overlayPixels = pixels.baseAddress!
            if rotation == .none && factor == 256 {
                // The common case, every frame while the labels are up: rows are contiguous on
                // both sides, walked by pointer with wrapping arithmetic (no overflow checks).
                // Eight pixels at a time with no branches: an empty source pixel leaves the
                // destination as it is (256/256 of it) and an opaque one replaces it (0/256).
                let redBlue = SIMD8<UInt32>(repeating: 0x00FF_00FF)
                let keepX = SIMD8<UInt32>(repeating: 0xFF00_0000)
                for row in y0..<y1 {
                    var destination = (baseAddress + row * bytesPerRow).assumingMemoryBound(to: UInt32.self) + x0
                    var source = overlayPixels + (start + (row - y0) * stepDown)
                    var left = x1 - x0
                    while left >= 8 {
                        let pixel = UnsafeRawPointer(source).loadUnaligned(as: SIMD8<UInt32>.self)
                        let old = UnsafeRawPointer(destination).loadUnaligned(as: SIMD8<UInt32>.self)
                        let alpha = pixel &>> 24
                        let remaining = 256 &- (alpha &+ (alpha &>> 7))
                        let scaledRedBlue = (((old & redBlue) &* remaining) &>> 8) & redBlue
                        let scaledAlphaGreen = (((old &>> 8) & redBlue) &* remaining) & ~redBlue
                        let blended = pixel &+ (scaledRedBlue | scaledAlphaGreen)
                        UnsafeMutableRawPointer(destination).storeBytes(of: (blended & ~keepX) | (old & keepX), as: SIMD8<UInt32>.self)
                        destination += 8
                        source += 8
                        left -= 8
                    }
                    for _ in 0..<left {
                        let pixel = source.pointee
                        if pixel != 0 {
                            let old = destination.pointee
                            let blended = pixel >> 24 == 255 ? pixel : PremultipliedPixel.over(pixel, old)
                            destination.pointee = (blended & 0x00FF_FFFF) | (old & 0xFF00_0000)
                        }
                        destination += 1
                        source += 1
                    }
                }
                return
            }
            for row in y0..<y1 {
                let destination = (baseAddress + row * bytesPerRow).assumingMemoryBound(to: UInt32.self)
                let rowStart = start + (row - y0) * stepDown
                for column in x0..<x1 {
                    var pixel = overlayPixels[rowStart + (column - x0) * stepRight]
                    if pixel == 0 { continue }
                    if factor < 256 { pixel = PremultipliedPixel.scaled(pixel, by: factor) }
                    let old = destination[column]
                    // The X byte is not a channel: keep whatever the buffer had there.
                    let blended = pixel >> 24 == 255 ? pixel : PremultipliedPixel.over(pixel, old)
                    destination[column] = (blended & 0x00FF_FFFF) | (old & 0xFF00_0000)
                }
            }
        }
        return covered
    }
}
