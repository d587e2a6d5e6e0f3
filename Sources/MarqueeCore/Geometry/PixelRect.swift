/// A rectangle of whole pixels; y grows downwards, as in every framebuffer and decoded picture.
public struct PixelRect: Hashable, Sendable, Codable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole of a picture or screen of `size`.
    public init(size: PixelSize) {
        self.init(x: 0, y: 0, width: size.width, height: size.height)
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// True when `other` lies entirely inside this rect (edges may touch).
    public func contains(_ other: PixelRect) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    /// Where this rect lands when the whole `container` is turned clockwise by `rotation`; the container
    /// itself becomes `container.rotated(by: rotation)`. Turning back uses `rotation.inverse` within that.
    public func rotated(_ rotation: Rotation, within container: PixelSize) -> PixelRect {
        switch rotation {
        case .none:
            self
        case .clockwise90:
            // The left edge becomes the top; the bottom edge becomes the left.
            PixelRect(x: container.height - maxY, y: x, width: height, height: width)
        case .upsideDown:
            PixelRect(x: container.width - maxX, y: container.height - maxY, width: width, height: height)
        case .clockwise270:
            // The top edge becomes the left; the right edge becomes the top.
            PixelRect(x: y, y: container.width - maxX, width: height, height: width)
        }
    }
}

extension PixelRect: CustomStringConvertible {
    public var description: String { "(\(x),\(y),\(width),\(height))" }
}
