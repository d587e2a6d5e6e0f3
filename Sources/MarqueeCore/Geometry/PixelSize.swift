/// A picture or screen size in whole pixels.
public struct PixelSize: Hashable, Sendable, Codable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The size after a quarter turn.
    public var swapped: PixelSize { PixelSize(width: height, height: width) }

    /// The size after turning by `rotation`.
    public func rotated(by rotation: Rotation) -> PixelSize {
        rotation.swapsAxes ? swapped : self
    }

    /// Nothing to draw: a zero (or nonsense negative) side.
    public var isEmpty: Bool { width <= 0 || height <= 0 }
}

extension PixelSize: CustomStringConvertible {
    public var description: String { "\(width)x\(height)" }
}

/// The shape of one coded pixel (FFmpeg's sample_aspect_ratio): 64:45 widens a 720x576 PAL frame to 1024x576.
///
/// Stored reduced, with unknown ratios as 1:1, so that ratios describing the same shape compare equal.
public struct SampleAspectRatio: Hashable, Sendable {
    public let numerator: Int
    public let denominator: Int

    /// FFmpeg reports 0:1 when a stream does not say; that (or any non-positive side) means square pixels.
    public init(numerator: Int, denominator: Int) {
        guard numerator > 0, denominator > 0 else {
            self.numerator = 1
            self.denominator = 1
            return
        }
        let divisor = Self.greatestCommonDivisor(numerator, denominator)
        self.numerator = numerator / divisor
        self.denominator = denominator / divisor
    }

    public static let square = SampleAspectRatio(numerator: 1, denominator: 1)

    public var isSquare: Bool { numerator == denominator }

    /// How wide `codedWidth` pixels look, rounded to nearest (halves up) and never below one pixel.
    /// Only the width changes, as in FFmpeg, so the line count of the picture stays what it is.
    public func displayWidth(ofCodedWidth codedWidth: Int) -> Int {
        max(1, (2 * codedWidth * numerator + denominator) / (2 * denominator))
    }

    private static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
        b == 0 ? a : greatestCommonDivisor(b, a % b)
    }
}

extension SampleAspectRatio: CustomStringConvertible {
    public var description: String { "\(numerator):\(denominator)" }
}
