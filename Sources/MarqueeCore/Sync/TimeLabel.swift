/// Status-bar times as GCKUIMediaController shows them: `1:23`, `1:02:03`, remaining as `-0:12`,
/// and `--:--` when unknown or live.
public enum TimeLabel {
    public static let unknown = "--:--"

    public static func position(_ time: MediaTime?) -> String {
        guard let time else { return unknown }
        return clock(wholeSeconds: max(0, time.ticks(timescale: 1, rounding: .down)))
    }

    public static func remaining(position: MediaTime?, duration: MediaTime?) -> String {
        guard let position, let duration else { return unknown }
        let left = max(0, (duration - position).ticks(timescale: 1, rounding: .up))
        return "-" + clock(wholeSeconds: left)
    }

    private static func clock(wholeSeconds: Int64) -> String {
        let hours = wholeSeconds / 3600, minutes = wholeSeconds / 60 % 60, seconds = wholeSeconds % 60
        let paddedSeconds = seconds < 10 ? "0\(seconds)" : "\(seconds)"
        if hours > 0 {
            return "\(hours):\(minutes < 10 ? "0\(minutes)" : "\(minutes)"):\(paddedSeconds)"
        }
        return "\(minutes):\(paddedSeconds)"
    }
}
