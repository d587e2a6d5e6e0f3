/// An exact point or span of media time: a reduced fraction of seconds.
///
/// Positions are sums of stream timestamps (1/90000, 1/48000, 1001/30000, ...) and user-written
/// decimals; doing that arithmetic in `Double` drifts after months of looping, so every operation
/// here is exact and reduced. Intermediate products use `Int128`, so no realistic timescale overflows.
public struct MediaTime: Sendable, Hashable, Comparable {
    /// Seconds times `denominator`; may be negative (a span backwards).
    public let numerator: Int64
    /// Always positive, and coprime with `numerator`.
    public let denominator: Int64

    public static let zero = MediaTime(0, per: 1)

    /// `numerator / denominator` seconds, reduced. A zero or negative denominator is a programming error.
    public init(_ numerator: Int64, per denominator: Int64) {
        precondition(denominator != 0, "MediaTime with a zero denominator")
        self.init(reducing: Int128(numerator), Int128(denominator))
    }

    public init(seconds: Int64) {
        self.init(seconds, per: 1)
    }

    private init(reducing numerator: Int128, _ denominator: Int128) {
        var n = numerator
        var d = denominator
        if d < 0 { n = -n; d = -d }
        let divisor = Self.greatestCommonDivisor(n.magnitude, d.magnitude)
        if divisor > 1 {
            n /= Int128(divisor)
            d /= Int128(divisor)
        }
        guard let narrowN = Int64(exactly: n), let narrowD = Int64(exactly: d) else {
            preconditionFailure("MediaTime overflow: \(n)/\(d) does not fit 64 bits")
        }
        self.numerator = narrowN
        self.denominator = narrowD
    }

    private static func greatestCommonDivisor(_ a: UInt128, _ b: UInt128) -> UInt128 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x == 0 ? 1 : x
    }

    /// For display and logging only; never feed it back into arithmetic.
    public var seconds: Double { Double(numerator) / Double(denominator) }

    /// This time as a count of `1/timescale` ticks, e.g. a stream pts or a sample index.
    public func ticks(timescale: Int64, rounding rule: FloatingPointRoundingRule = .down) -> Int64 {
        precondition(timescale > 0, "timescale must be positive")
        let scaled = Int128(numerator) * Int128(timescale)
        let d = Int128(denominator)
        var quotient = scaled / d
        let remainder = scaled % d
        if remainder != 0 {
            switch rule {
            case .down:
                if scaled < 0 { quotient -= 1 }
            case .up:
                if scaled > 0 { quotient += 1 }
            case .towardZero:
                break
            case .awayFromZero:
                quotient += scaled > 0 ? 1 : -1
            case .toNearestOrAwayFromZero, .toNearestOrEven:
                let twice = remainder.magnitude * 2
                let away = twice > d.magnitude
                    || (twice == d.magnitude && (rule == .toNearestOrAwayFromZero || quotient.magnitude % 2 == 1))
                if away { quotient += scaled > 0 ? 1 : -1 }
            @unknown default:
                if scaled < 0 { quotient -= 1 }
            }
        }
        guard let result = Int64(exactly: quotient) else {
            preconditionFailure("MediaTime ticks overflow at timescale \(timescale)")
        }
        return result
    }

    public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        MediaTime(reducing: Int128(lhs.numerator) * Int128(rhs.denominator) + Int128(rhs.numerator) * Int128(lhs.denominator),
                  Int128(lhs.denominator) * Int128(rhs.denominator))
    }

    public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        lhs + (-rhs)
    }

    public static prefix func - (value: MediaTime) -> MediaTime {
        MediaTime(reducing: -Int128(value.numerator), Int128(value.denominator))
    }

    public static func * (lhs: MediaTime, rhs: Int64) -> MediaTime {
        MediaTime(reducing: Int128(lhs.numerator) * Int128(rhs), Int128(lhs.denominator))
    }

    public static func += (lhs: inout MediaTime, rhs: MediaTime) { lhs = lhs + rhs }
    public static func -= (lhs: inout MediaTime, rhs: MediaTime) { lhs = lhs - rhs }

    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        Int128(lhs.numerator) * Int128(rhs.denominator) < Int128(rhs.numerator) * Int128(lhs.denominator)
    }

    /// This span times a ratio (a playback rate), exact while the result's denominator stays
    /// within `timescale`; otherwise rounded down (or up) to `1/timescale`, so sums with stream
    /// times keep fitting 64 bits.
    public func multiplied(by factor: MediaTime, timescale: Int64 = 1_000_000_000, roundingUp: Bool = false) -> MediaTime {
        var n = Int128(numerator) * Int128(factor.numerator)
        var d = Int128(denominator) * Int128(factor.denominator)
        let divisor = Self.greatestCommonDivisor(n.magnitude, d.magnitude)
        n /= Int128(divisor)
        d /= Int128(divisor)
        if d <= Int128(timescale), let narrow = Int64(exactly: n) { return MediaTime(narrow, per: Int64(d)) }
        let scaled = n * Int128(timescale)
        var ticks = scaled / d
        if scaled % d != 0 {
            if roundingUp && scaled > 0 { ticks += 1 }
            if !roundingUp && scaled < 0 { ticks -= 1 }
        }
        guard let narrow = Int64(exactly: ticks) else { preconditionFailure("MediaTime overflow scaling \(self) by \(factor)") }
        return MediaTime(narrow, per: timescale)
    }

    public func clamped(to range: ClosedRange<MediaTime>) -> MediaTime {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}

extension MediaTime: CustomStringConvertible {
    /// `[-][h:]m:ss.fff` (`0:05.000`, `1:02:03.250`), rounded to the nearest millisecond; the exact
    /// fraction is in `debugDescription`.
    public var description: String {
        let millis = ticks(timescale: 1000, rounding: .toNearestOrAwayFromZero)
        let sign = millis < 0 ? "-" : ""
        let total = millis.magnitude
        let (hours, minutes, secs, ms) = (total / 3_600_000, total / 60_000 % 60, total / 1000 % 60, total % 1000)
        let clock = hours > 0
            ? "\(hours):\(Self.twoDigits(minutes)):\(Self.twoDigits(secs))"
            : "\(minutes):\(Self.twoDigits(secs))"
        let fraction = String(ms + 1000).dropFirst()
        return "\(sign)\(clock).\(fraction)"
    }

    static func twoDigits(_ value: UInt64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}

extension MediaTime: CustomDebugStringConvertible {
    public var debugDescription: String { "\(numerator)/\(denominator)s" }
}
