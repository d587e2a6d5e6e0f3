import CFFmpeg
import MarqueeCore

/// Exact conversions between FFmpeg's timestamps and `MediaTime`.
///
/// A pts is a count of `time_base` ticks (1/90000, 1/12800, 1001/30000 s ...). Going through `Double`
/// would drift after months of looping, so these multiply in 128 bits and reduce. Stream data is
/// untrusted: a corrupt file can carry any 64-bit pts, so a time that does not fit `MediaTime` is
/// `nil` (unknown), never a trap.
extension MediaTime {
    /// `timestamp` ticks of `timeBase`; `nil` for `AV_NOPTS_VALUE`, a time base with a zero or
    /// negative side, or a time too large to represent.
    init?(timestamp: Int64, timeBase: AVRational) {
        guard timestamp != marquee_av_nopts_value(), timeBase.num > 0, timeBase.den > 0 else { return nil }
        self.init(exactly: Int128(timestamp) * Int128(timeBase.num), per: Int128(timeBase.den))
    }

    /// A rate or ratio such as `avg_frame_rate` (25/1, 30000/1001); `nil` when FFmpeg says 0/0 or x/0.
    init?(rational: AVRational) {
        guard rational.num > 0, rational.den > 0 else { return nil }
        self.init(Int64(rational.num), per: Int64(rational.den))
    }

    /// This time as ticks of `timeBase`, e.g. a seek target for one stream. `rounding` picks the tick
    /// when the time falls between two (`.down` never lands after the time); a time beyond what 64-bit
    /// ticks can hold saturates, which no real seek target reaches.
    func timestamp(in timeBase: AVRational, rounding rule: FloatingPointRoundingRule = .down) -> Int64 {
        precondition(timeBase.num > 0 && timeBase.den > 0, "a time base must be positive")
        // seconds / (num/den) = (numerator * den) / (denominator * num)
        let dividend = Int128(numerator) * Int128(timeBase.den)
        let divisor = Int128(denominator) * Int128(timeBase.num)
        var quotient = dividend / divisor
        let remainder = dividend % divisor
        if remainder != 0 {
            let awayFromZero: Int128 = dividend < 0 ? -1 : 1
            switch rule {
            case .down: if dividend < 0 { quotient -= 1 }
            case .up: if dividend > 0 { quotient += 1 }
            case .towardZero: break
            case .awayFromZero: quotient += awayFromZero
            case .toNearestOrAwayFromZero, .toNearestOrEven:
                let twice = remainder.magnitude * 2
                if twice > divisor.magnitude
                    || (twice == divisor.magnitude && (rule == .toNearestOrAwayFromZero || quotient.magnitude % 2 == 1)) {
                    quotient += awayFromZero
                }
            @unknown default: if dividend < 0 { quotient -= 1 }
            }
        }
        // Int64.min is AV_NOPTS_VALUE, so saturation stops one above it.
        return max(Int64(clamping: quotient), Int64.min + 1)
    }

    /// `numerator / denominator` reduced, or nil when the reduced fraction does not fit 64 bits.
    private init?(exactly numerator: Int128, per denominator: Int128) {
        let divisor = Self.greatestCommonDivisor(numerator.magnitude, denominator.magnitude)
        guard let n = Int64(exactly: numerator / Int128(divisor)),
              let d = Int64(exactly: denominator / Int128(divisor)) else { return nil }
        self.init(n, per: d)
    }

    private static func greatestCommonDivisor(_ a: UInt128, _ b: UInt128) -> UInt128 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x == 0 ? 1 : x
    }
}
