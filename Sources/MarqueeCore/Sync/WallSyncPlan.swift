/// Frame-locked playback (config `sync:`): the playlist's gapless timeline anchored to a shared
/// epoch, so that at wall time T every player shows what is on screen at
/// ((T − epoch) mod the playlist's cycle). Players need no leader and no protocol of their own:
/// only clocks kept in step by chrony/NTP or PTP.
///
/// All arithmetic is exact (rational item lengths, integer nanoseconds of wall time): two players
/// that read the same wall time pick the same item and the same item time, to the nanosecond.
public struct WallSyncPlan: Sendable, Equatable {
    /// The epoch, in milliseconds since 1970-01-01T00:00:00Z: a config may give it to the
    /// millisecond (`2026-01-01T00:00:00.250Z`), and players must agree on it exactly.
    public let epochUnixMilliseconds: Int64
    /// Each item's length, in playlist order: what the engine's timeline advances by.
    public let lengths: [MediaTime]
    /// Where each item starts within the cycle.
    public let itemStarts: [MediaTime]
    /// The whole playlist, once through.
    public let cycle: MediaTime

    /// nil when there is nothing to cycle through (no items, or a cycle of length zero).
    public init?(epochUnixMilliseconds: Int64, lengths: [MediaTime]) {
        guard !lengths.isEmpty, lengths.allSatisfy({ $0 > .zero }) else { return nil }
        self.epochUnixMilliseconds = epochUnixMilliseconds
        self.lengths = lengths
        var starts: [MediaTime] = []
        var sum = MediaTime.zero
        for length in lengths {
            starts.append(sum)
            sum += length
        }
        itemStarts = starts
        cycle = sum
    }

    /// Where the wall says playback is.
    public struct Position: Sendable, Equatable {
        /// How many whole cycles have played since the epoch (negative before it).
        public var cycleNumber: Int64
        public var index: Int
        /// Time into item `index` (0 at its trimmed start).
        public var itemTime: MediaTime
        /// Time into the cycle.
        public var phase: MediaTime
    }

    /// The position at `unixTime` (seconds since 1970, exact, e.g. whole nanoseconds).
    public func position(atUnixTime unixTime: MediaTime) -> Position {
        let sinceEpoch = unixTime - MediaTime(epochUnixMilliseconds, per: 1000)
        // floor(sinceEpoch / cycle), in 128 bits: the epoch may be years back and the cycle's
        // denominator large; only the small remainder has to fit a MediaTime.
        let numerator = Int128(sinceEpoch.numerator) * Int128(cycle.denominator)
        let denominator = Int128(sinceEpoch.denominator) * Int128(cycle.numerator)
        var cycles = numerator / denominator
        if numerator % denominator != 0 && (numerator < 0) != (denominator < 0) { cycles -= 1 }
        let cycleNumber = Int64(cycles)
        let phase = sinceEpoch - cycle * cycleNumber
        // The last item whose start is at or before the phase.
        var index = itemStarts.count - 1
        while index > 0 && itemStarts[index] > phase { index -= 1 }
        return Position(cycleNumber: cycleNumber, index: index, itemTime: phase - itemStarts[index], phase: phase)
    }

    /// Where to join a timeline whose clock time 0 was `clockZeroUnixTime` on the wall, aiming
    /// at clock time `target` (now plus a pre-roll long enough to open and decode up to it).
    /// `itemStartClockTime` is the clock time at which item `index` started (or would have), so
    /// the engine lays its timeline from there and every later item falls on the wall's beat.
    public func join(atClockTime target: MediaTime, clockZeroUnixTime: MediaTime) -> Join {
        let position = position(atUnixTime: clockZeroUnixTime + target)
        return Join(position: position, itemStartClockTime: target - position.itemTime)
    }

    public struct Join: Sendable, Equatable {
        public var position: Position
        public var itemStartClockTime: MediaTime
    }
}

/// A sync plan and where the player's clock sits on the wall: clock time 0 is
/// `clockZeroUnixNanoseconds` of the wall clock, as the player reads it.
public struct WallSync: Sendable, Equatable {
    public var plan: WallSyncPlan
    public var clockZeroUnixNanoseconds: Int64

    public init(plan: WallSyncPlan, clockZeroUnixNanoseconds: Int64) {
        self.plan = plan
        self.clockZeroUnixNanoseconds = clockZeroUnixNanoseconds
    }

    public var clockZeroUnixTime: MediaTime { MediaTime(clockZeroUnixNanoseconds, per: 1_000_000_000) }

    public func join(atClockTime target: MediaTime) -> WallSyncPlan.Join {
        plan.join(atClockTime: target, clockZeroUnixTime: clockZeroUnixTime)
    }
}
