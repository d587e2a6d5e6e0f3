import Foundation
import Synchronization

/// Converts between instants and what a clock on the wall of one time zone reads. The zone's
/// rules (UTC offsets, DST) come from the tz database through Foundation's `TimeZone` (on Linux,
/// ICU's copy in the Swift runtime); only the two ambiguous cases are decided here, as cron
/// decides them for jobs (Debian's cron(8)):
///
/// - a reading that does not exist (02:30 on the spring-forward day in Europe/Berlin, when
///   clocks jump from 02:00 to 03:00) happens at the first instant after the gap: 03:00;
/// - a reading that happens twice (02:30 on the autumn day, when 02:00–03:00 is repeated)
///   happens at its first occurrence, in summer time.
///
/// Both are one rule: a reading happens at the first instant at which the clock shows it or a
/// later time of that day.
public struct WallClock: Sendable, Equatable {
    public let timeZone: TimeZone
    /// `firstSecond(reading:)` remembered: a timetable asks for the same few readings (each item's
    /// window edges on a handful of days) over and over, and each answer costs several tz lookups.
    /// 10,000 windowed items took 149 s to print a day without it.
    private let remembered = ReadingMemo()

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    public static func == (lhs: WallClock, rhs: WallClock) -> Bool { lhs.timeZone == rhs.timeZone }

    /// The zone's UTC offset at `instant`, in seconds (east positive).
    public func offset(at instant: Date) -> Int {
        timeZone.secondsFromGMT(for: instant)
    }

    /// What the clock reads at `instant`, to the second (rounded down).
    public func reading(at instant: Date) -> LocalDateTime {
        LocalDateTime(localSeconds: localSeconds(at: instant))
    }

    func localSeconds(at instant: Date) -> Int {
        Int(instant.timeIntervalSince1970.rounded(.down)) + offset(at: instant)
    }

    /// The first instant at which the clock reads `local`; for a reading inside a gap, the
    /// instant the gap ends.
    public func instant(of local: LocalDateTime) -> Date {
        Date(timeIntervalSince1970: Double(firstSecond(reading: local.localSeconds)))
    }

    /// `instant(of:)` on the `localSeconds` scale, in whole seconds since 1970 UTC.
    func firstSecond(reading local: Int) -> Int {
        if let known = remembered.value(for: local) { return known }
        let first = computeFirstSecond(reading: local)
        remembered.store(first, for: local)
        return first
    }

    private func computeFirstSecond(reading local: Int) -> Int {
        // Every instant with that reading is `local − o` for an offset `o` the zone uses around
        // then; a day either side catches the offsets on both sides of any transition that day.
        let offsets = Set([local - Self.day, local, local + Self.day].map { offset(atSecond: $0) })
        let instants = offsets.map { local - $0 }.filter { local - offset(atSecond: $0) == $0 }
        if let first = instants.min() { return first }
        // A gap: before the transition the clock reads less than `local`, after it more. The
        // transition lies between the two candidates; find its exact second by halving.
        guard let smallest = offsets.min(), let largest = offsets.max(), smallest != largest else {
            return local - offsets.first!
        }
        var before = local - largest   // still on the old offset
        var after = local - smallest   // already on the new one
        let oldOffset = offset(atSecond: before)
        while after - before > 1 {
            let middle = before + (after - before) / 2
            if offset(atSecond: middle) == oldOffset { before = middle } else { after = middle }
        }
        return after
    }

    private func offset(atSecond second: Int) -> Int {
        timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(second)))
    }

    private static let day = TimeOfDay.secondsPerDay
}

/// The answers of one clock's `firstSecond(reading:)`, shared by its copies; bounded (cleared
/// when full), since a player runs for months.
private final class ReadingMemo: Sendable {
    private let answers = Mutex<[Int: Int]>([:])
    private static let capacity = 200_000

    func value(for local: Int) -> Int? {
        answers.withLock { $0[local] }
    }

    func store(_ value: Int, for local: Int) {
        answers.withLock { answers in
            if answers.count >= Self.capacity { answers.removeAll(keepingCapacity: true) }
            answers[local] = value
        }
    }
}
