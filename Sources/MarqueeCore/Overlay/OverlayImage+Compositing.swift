/// Putting overlay images together into the one picture an overlay plane shows: unlike blending
/// onto the video (`PixelBuffer.blend`, which keeps the buffer's unused X byte), the result keeps
/// its alpha, so the plane's hardware does the last "over" onto the video.
extension OverlayImage {
    /// A copy with every channel (alpha included) faded by `opacity` (0...1): the OSD as it fades out.
    public func faded(_ opacity: Double) -> OverlayImage {
        let factor = Self.factor(ofOpacity: opacity)
        guard factor < 256 else { return self }
        var copy = self
        for index in copy.pixels.indices {
            copy.pixels[index] = factor == 0 ? 0 : PremultipliedPixel.scaled(copy.pixels[index], by: factor)
        }
        return copy
    }

    /// Composites `image`, faded by `opacity`, over this one with its top-left at (x, y), clipped to
    /// this image: Porter-Duff "over" on all four channels.
    public mutating func composite(_ image: OverlayImage, x: Int, y: Int, opacity: Double = 1) {
        let factor = Self.factor(ofOpacity: opacity)
        let area = clipped(PixelRect(x: x, y: y, width: image.size.width, height: image.size.height))
        guard factor > 0, !area.isEmpty else { return }
        for row in area.y..<area.maxY {
            for column in area.x..<area.maxX {
                composite(image[column - x, row - y], weight: factor, at: row * size.width + column)
            }
        }
    }

    /// A copy turned clockwise by `rotation`, the way `PixelRect.rotated(_:within:)` turns its
    /// place: how the OSD goes on a plane over a picture that was turned in software.
    public func turned(clockwise rotation: Rotation) -> OverlayImage {
        guard rotation != .none else { return self }
        var turned = OverlayImage(size: size.rotated(by: rotation))
        let (width, height) = (size.width, size.height)
        for y in 0..<height {
            for x in 0..<width {
                // Where pixel (x, y) lands once the image is turned clockwise.
                let (tx, ty): (Int, Int)
                switch rotation {
                case .none: (tx, ty) = (x, y)
                case .clockwise90: (tx, ty) = (height - 1 - y, x)
                case .upsideDown: (tx, ty) = (width - 1 - x, height - 1 - y)
                case .clockwise270: (tx, ty) = (y, width - 1 - x)
                }
                turned.pixels[ty * turned.size.width + tx] = pixels[y * width + x]
            }
        }
        return turned
    }

    /// The part of the image inside `rect` (clipped to the image).
    public func cropped(to rect: PixelRect) -> OverlayImage {
        let area = clipped(rect)
        guard area != PixelRect(size: size) else { return self }
        var part = OverlayImage(size: area.size)
        for row in 0..<area.height {
            let from = (area.y + row) * size.width + area.x
            part.pixels.replaceSubrange(row * area.width..<(row + 1) * area.width, with: pixels[from..<from + area.width])
        }
        return part
    }

    /// 0...1 as the 0...256 factor the pixel arithmetic uses, as `PixelBuffer.blend` rounds it.
    static func factor(ofOpacity opacity: Double) -> UInt32 {
        UInt32((min(1, max(0, opacity.isNaN ? 0 : opacity)) * 256).rounded())
    }
}
