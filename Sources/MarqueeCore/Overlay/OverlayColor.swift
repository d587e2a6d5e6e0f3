/// A colour with straight (not premultiplied) alpha, as a designer writes it: white text, a black
/// panel at 60 %. Overlay images store it premultiplied; this is only how callers name it.
public struct OverlayColor: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    /// 0 is fully transparent, 255 fully opaque.
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// `color` at `opacity` (0...1; values outside are clamped).
    public init(_ color: RGBColor, opacity: Double = 1) {
        let clamped = min(1, max(0, opacity.isNaN ? 0 : opacity))
        self.init(red: color.red, green: color.green, blue: color.blue, alpha: UInt8((clamped * 255).rounded()))
    }

    public static let white = OverlayColor(red: 255, green: 255, blue: 255)
    public static let black = OverlayColor(red: 0, green: 0, blue: 0)
    public static let transparent = OverlayColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// As an overlay pixel stores it: 0xAARRGGBB with each colour channel already multiplied by alpha
    /// (little-endian bytes B, G, R, A; the layout of DRM's ARGB8888 too).
    public var premultipliedARGB: UInt32 {
        let a = UInt32(alpha)
        return a << 24 | PremultipliedPixel.multiply(UInt32(red), a) << 16
            | PremultipliedPixel.multiply(UInt32(green), a) << 8 | PremultipliedPixel.multiply(UInt32(blue), a)
    }
}
