import MarqueeCore

/// Notices that a local file changed while it is read: operators copy a new file over the one
/// playing, cut it or rename another into its place, and FFmpeg would go on reading whatever bytes
/// now sit at its old offsets (garbage, or nothing) with no error worth the name.
///
/// The path is stat'ed at most once per `interval` of media read (a stat costs a microsecond: about
/// one per frame, not one per packet), and always when the reader meets something that a
/// change would explain: damage, a read error, the end of the data.
final class SourceChangeWatch {
    let path: String
    private let opened: FileIdentity
    private var checkedAt: MediaTime?

    /// Media read between two checks: at most a frame of a changed file is read before it is
    /// noticed, so the item ends within a frame slot of the change (it was 1/4 s: up to 0.4 s).
    static let interval = MediaTime(1, per: 50)

    /// Starts watching the file `path` names now; nil when it cannot be stat'ed (there is nothing
    /// to compare with, and the open that follows will say why).
    init?(path: String) {
        guard let opened = FileIdentity(path: path) else { return nil }
        self.path = path
        self.opened = opened
    }

    /// Whether the file changed, checked only when `position` (media time read so far) is an
    /// interval past the last check, or at once when `now` is true.
    func hasChanged(at position: MediaTime, now: Bool = false) -> Bool {
        if !now, let checkedAt, position - checkedAt < Self.interval, position >= checkedAt { return false }
        checkedAt = position
        return opened.isChanged(to: FileIdentity(path: path))
    }
}
