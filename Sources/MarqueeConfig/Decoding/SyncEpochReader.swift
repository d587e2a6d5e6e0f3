import Foundation
import MarqueeCore

/// Reads `sync.epoch` to the millisecond: an ISO 8601 instant with its zone
/// (`2026-11-27T10:00:00.250Z`, `…+01:00`) or Unix seconds (`1764237600.25`, UTC by definition).
/// The calendar parser reads whole seconds, so the fraction is cut out and added back as digits,
/// never through a Double: `.123` must be 123 ms on every player, not 122.999… on one of them.
/// Finer than a millisecond is refused rather than rounded: the epoch is kept in milliseconds, and
/// a value the config writes but the players do not use would hide a mistake (a pasted `%N`).
enum SyncEpochReader {
    enum Reading: Equatable {
        case milliseconds(Int64)
        /// Digits past the third after the point that are not all zero.
        case finerThanAMillisecond
        /// Not an instant with a zone, nor a number of seconds.
        case notAnInstant
    }

    static func read(_ text: String) -> Reading {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let reading = readUnixSeconds(trimmed) { return reading }
        return readISO8601(trimmed)
    }

    /// `1764237600`, `1764237600.25`, `-1.5`; nil when `text` is not a plain decimal number.
    private static func readUnixSeconds(_ text: String) -> Reading? {
        let negative = text.hasPrefix("-")
        let unsigned = negative ? text.dropFirst() : Substring(text)
        let parts = unsigned.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, isDigits(whole) else { return nil }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard parts.count == 1 || isDigits(fraction) else { return nil }
        guard let seconds = Int64(whole) else { return .notAnInstant }
        return combine(seconds: seconds, fraction: fraction, negative: negative)
    }

    /// `2026-11-27T10:00:00.250Z`: the zone is required (devices in other zones would disagree
    /// by hours), the fraction may follow whole seconds.
    private static func readISO8601(_ text: String) -> Reading {
        guard let separator = text.firstIndex(where: { $0 == "T" || $0 == "t" || $0 == " " }) else { return .notAnInstant }
        let zoneStart: String.Index
        if text.last == "Z" || text.last == "z" {
            zoneStart = text.index(before: text.endIndex)
        } else if let sign = text[separator...].lastIndex(where: { $0 == "+" || $0 == "-" }) {
            zoneStart = sign
        } else {
            return .notAnInstant
        }
        var body = text[..<zoneStart]
        var fraction: Substring = ""
        if let point = body[separator...].firstIndex(of: ".") {
            fraction = body[body.index(after: point)...]
            guard isDigits(fraction) else { return .notAnInstant }
            body = body[..<point]
        }
        guard let instant = WallClock(timeZone: TimeZone(identifier: "UTC")!).instant(parsingISO8601: String(body + text[zoneStart...])),
              let seconds = Int64(exactly: instant.timeIntervalSince1970) else { return .notAnInstant }
        return combine(seconds: seconds, fraction: fraction, negative: false)
    }

    /// One or more ASCII digits (`Character.isNumber` would take `²` and `٣` too).
    private static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.allSatisfy { ("0"..."9").contains($0) }
    }

    /// `seconds` and the decimal digits after the point, as milliseconds. `negative`: the whole
    /// number is negative (`-1.5` is −1500 ms); an instant's fraction always counts forward.
    private static func combine(seconds: Int64, fraction: Substring, negative: Bool) -> Reading {
        guard fraction.dropFirst(3).allSatisfy({ $0 == "0" }) else { return .finerThanAMillisecond }
        let milliseconds = Int64(String(fraction.prefix(3)).padding(toLength: 3, withPad: "0", startingAt: 0))!
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return .notAnInstant }
        let (total, overflowAdding) = scaled.addingReportingOverflow(milliseconds)
        guard !overflowAdding else { return .notAnInstant }
        return .milliseconds(negative ? -total : total)
    }
}
