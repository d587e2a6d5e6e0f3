/// The most pixels a still image may have (`display.maxImagePixels`): a picture's decoded size is
/// its pixel count times a few bytes, so a bound on the count bounds the memory one still can take.
///
/// Written `WIDTHxHEIGHT` (the limit is their product, so a 16384x4096 panorama fits under
/// 8192x8192) or as a plain pixel count; it prints back as it was written.
public struct ImagePixelLimit: Sendable, Hashable, Codable, CustomStringConvertible {
    public let pixelCount: Int
    /// How the limit was written, for messages that name it.
    public let description: String

    /// 8192x8192: larger than any screen's worth of detail, small enough (256 MB of RGBA) for a
    /// device with 1 GB of memory.
    public static let `default` = ImagePixelLimit(width: 8192, height: 8192)

    /// Anything above this is a typo (2^31 pixels: 8 GB decoded).
    public static let largestCount = 1 << 31

    public init(width: Int, height: Int) {
        pixelCount = width * height
        description = "\(width)x\(height)"
    }

    public init(pixelCount: Int) {
        self.pixelCount = pixelCount
        description = "\(pixelCount)"
    }

    /// `WIDTHxHEIGHT` or a whole number of pixels, 1 to `largestCount`.
    public init?(parsing text: String) {
        func number(_ part: Substring) -> Int? {
            guard !part.isEmpty, part.count <= 10, part.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(part)
        }
        let parts = text.lowercased().split(separator: "x", maxSplits: 1, omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            guard let count = number(parts[0]) else { return nil }
            self.init(pixelCount: count)
        case 2:
            guard let width = number(parts[0]), let height = number(parts[1]),
                  width <= Self.largestCount, height <= Self.largestCount else { return nil }
            self.init(width: width, height: height)
        default:
            return nil
        }
        guard (1...Self.largestCount).contains(pixelCount) else { return nil }
    }

    /// Whether a picture of `size` is over the limit.
    public func refuses(_ size: PixelSize) -> Bool {
        size.width * size.height > pixelCount
    }
}
