/// Integer arithmetic on premultiplied 0xAARRGGBB pixels, two channels at a time (red and blue in
/// one word, alpha and green in another), so blending costs a few multiplies a pixel and no
/// floating point. Factors run 0...256 rather than 0...255 so that 256 is exactly "keep" and a
/// shift replaces the division.
enum PremultipliedPixel {
    /// `value * factor / 255`, rounded to nearest, for 8-bit operands.
    @inline(__always)
    static func multiply(_ value: UInt32, _ factor: UInt32) -> UInt32 {
        let product = value * factor + 128
        return (product + (product >> 8)) >> 8
    }

    /// An 8-bit weight (alpha or coverage, 0...255) widened to 0...256, so 255 means "all".
    @inline(__always)
    static func factor(ofWeight weight: UInt32) -> UInt32 {
        weight + (weight >> 7)
    }

    /// Every channel of `pixel` (alpha included) times `factor / 256`.
    @inline(__always)
    static func scaled(_ pixel: UInt32, by factor: UInt32) -> UInt32 {
        let redBlue = ((pixel & 0x00FF_00FF) &* factor) >> 8 & 0x00FF_00FF
        let alphaGreen = (((pixel >> 8) & 0x00FF_00FF) &* factor) & 0xFF00_FF00
        return redBlue | alphaGreen
    }

    /// Porter-Duff "source over destination". The destination's top byte is carried through as it
    /// is scaled like a channel, which for an overlay is its alpha; callers writing to XRGB restore X.
    @inline(__always)
    static func over(_ source: UInt32, _ destination: UInt32) -> UInt32 {
        let remaining = 256 - factor(ofWeight: source >> 24)
        return source &+ scaled(destination, by: remaining)
    }
}
