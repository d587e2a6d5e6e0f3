/// Tells a damaged file from a finished one: media whose data runs out well before the end its
/// container declares was cut short (an interrupted copy or download, a full disk) and must end as
/// `playbackError`, not pass as a normal end with its last frame frozen for the rest of the item.
public enum TruncationRule {
    /// How far short of the declared end the data may stop and still count as complete: a
    /// container's duration is its longest stream's, and a last frame's own length is not always
    /// known.
    public static let tolerance = MediaTime(1, per: 2)

    /// Why the item failed, or nil when it ended normally. `decodedTo` is where the last picture or
    /// sound decoded ends, in media time; `timing` is the item's resolved span.
    public static func problem(decodedTo reached: MediaTime, timing: ItemTiming, declaredDuration: MediaTime?,
                               isEstimated: Bool) -> String? {
        // A duration guessed from the bitrate may be off by more than the tolerance in a whole file.
        guard let declared = declaredDuration, !isEstimated else { return nil }
        let expected = min(timing.end ?? declared, declared)
        guard expected - reached > tolerance else { return nil }
        return "truncated: decoded to \(tenths(reached)) s of \(tenths(declared)) s"
    }

    /// Why an item whose file changed under the reader (copied over, cut, replaced) failed, saying
    /// how far it had played: the same rule as a file cut before it was opened, for a file cut while
    /// it is read.
    public static func changedWhilePlaying(decodedTo reached: MediaTime, declaredDuration: MediaTime?) -> String {
        guard let declared = declaredDuration else { return "changed while playing (truncated at \(tenths(reached)) s)" }
        return "changed while playing (truncated at \(tenths(reached)) s of \(tenths(declared)) s)"
    }

    /// `4.0`, `10.3`: seconds to a tenth, rounded down (what was decoded, never more).
    private static func tenths(_ time: MediaTime) -> String {
        let tenths = Int((max(time, .zero).seconds * 10).rounded(.down))
        return "\(tenths / 10).\(tenths % 10)"
    }
}
