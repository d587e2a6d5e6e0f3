/// Why a time string was rejected, phrased for a config error line.
public struct TimeSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public let text: String
    public let reason: String
    public var description: String { "bad time '\(text)': \(reason)" }
}

extension MediaTime {
    /// Most fractional digits accepted: nanoseconds are finer than any media timestamp.
    static let maximumFractionDigits = 9
    /// Most whole-second digits accepted (31 years): with nine fraction digits the scaled value
    /// still fits 64 bits.
    static let maximumWholeDigits = 9
    /// Most digits in an hours or minutes field (114 years of hours), for the same reason.
    static let maximumClockFieldDigits = 6

    /// Parses a non-negative time written as seconds (`90`, `2.5`) or as a clock (`[hh:]mm:ss[.fff]`,
    /// e.g. `0:30`, `1:02:03.250`). Decimals are read exactly, never through `Double`.
    public static func parse(_ rawText: String) -> Result<MediaTime, TimeSyntaxError> {
        let text = rawText.trimmingWhitespace()
        func failure(_ reason: String) -> Result<MediaTime, TimeSyntaxError> {
            .failure(TimeSyntaxError(text: rawText, reason: reason))
        }
        if text.isEmpty { return failure("empty; expected seconds or [hh:]mm:ss[.fff]") }
        if text.hasPrefix("-") { return failure("times cannot be negative") }

        let fields = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard fields.count <= 3 else { return failure("too many ':' fields; expected [hh:]mm:ss[.fff]") }

        guard case .success(let secondsField) = parseDecimal(fields[fields.count - 1]) else {
            return failure(fields.count == 1
                ? "expected seconds (e.g. 2.5) or [hh:]mm:ss[.fff]"
                : "seconds field '\(fields[fields.count - 1])' is not a number")
        }
        if fields.count == 1 { return .success(secondsField) }

        if fields[fields.count - 1].split(separator: ".").first?.count != 2 {
            return failure("seconds must have two digits in [hh:]mm:ss[.fff]")
        }
        if !(secondsField < MediaTime(seconds: 60)) { return failure("seconds must be below 60") }

        var wholeFields: [Int64] = []
        for field in fields.dropLast() {
            guard !field.isEmpty, field.count <= maximumClockFieldDigits, field.allSatisfy(\.isASCIIDigit), let value = Int64(field) else {
                return failure("'\(field)' is not a whole number of \(wholeFields.isEmpty && fields.count == 3 ? "hours" : "minutes")")
            }
            wholeFields.append(value)
        }
        let hours = fields.count == 3 ? wholeFields[0] : 0
        let minutes = wholeFields[wholeFields.count - 1]
        if fields.count == 3 && minutes >= 60 { return failure("minutes must be below 60 when hours are given") }
        return .success(MediaTime(seconds: hours * 3600 + minutes * 60) + secondsField)
    }

    /// `123`, `123.`, `.5` and `2.500` are decimals; signs, exponents and other characters are not.
    private static func parseDecimal(_ text: String) -> Result<MediaTime, TimeSyntaxError> {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        let invalid = TimeSyntaxError(text: text, reason: "not a decimal number")
        guard !(whole.isEmpty && fraction.isEmpty),
              whole.count <= maximumWholeDigits, whole.allSatisfy(\.isASCIIDigit),
              fraction.count <= maximumFractionDigits, fraction.allSatisfy(\.isASCIIDigit)
        else { return .failure(invalid) }
        var scale: Int64 = 1
        for _ in fraction { scale *= 10 }
        let wholeValue = Int64(whole) ?? 0
        let fractionValue = Int64(fraction) ?? 0
        return .success(MediaTime(wholeValue * scale + fractionValue, per: scale))
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension String {
    func trimmingWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}
