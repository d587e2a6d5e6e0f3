import Foundation
import Logging
import MarqueeCore
import MarqueeFleet
import MarqueeLedger
import MarqueePlayer

/// Where a player enters its first queue (`items`, of `daypart` with a timetable): a saved place,
/// or nil for the top.
package typealias ResumeLookup = @Sendable (_ items: [QueueItem], _ daypart: String?) -> ResumePoint?

/// Resume after a restart (`resume:`): the position is saved every `interval` while an item plays
/// and once at exit, atomically (a temporary file synced and renamed, so a power cut leaves the old
/// position or the new one); at start, a position saved for the same config and item is where the
/// player begins, with an exact seek. A changed config starts from the top, and with a timetable
/// so does another daypart than the one saved (its queue is another). Frame-locked playback
/// follows its epoch, so it never resumes. A run whose content comes later (remote media, a
/// fetched config) resumes when its first playlist arrives, if that is the config kept from the
/// last run.
package final class PositionKeeper: @unchecked Sendable {
    package let path: String
    private let screen: String
    /// The config in force: its digest is saved with the position (read at each save, so a
    /// reloaded or newly fetched config is the one named).
    private let config: @Sendable () -> String
    private let logger: Logger
    private let lock = NSLock()
    private var lastSaved: SavedPosition?
    /// A quit ended the run (a signal, `quit`): the frame on screen at the end is what is kept.
    private var quitAsked = false

    package static let interval = 2.0
    package static let fileName = "position.json"

    /// Saves run here, never on the control-plane loop: an fsync on a slow card must not hold a key.
    private let queue = DispatchQueue(label: "marquee.position")
    private var timer: DispatchSourceTimer?

    package init(path: String, screen: String, config: @escaping @Sendable () -> String, logger: Logger) {
        self.path = path
        self.screen = screen
        self.config = config
        self.logger = logger
    }

    /// The keeper a plan asks for, or nil: `resume: false`, a wall, or no state directory without
    /// `resume: true`.
    /// `main`: the main screen's, in `position.json`; another screen of `displays:` has its own
    /// file, `position-NAME.json`, so each is written whole on its own.
    package static func make(plan: PlaybackPlan, config: @escaping @Sendable () -> String, screen: String, main: Bool = true, logger: Logger,
                             environment: [String: String] = ProcessInfo.processInfo.environment) -> PositionKeeper? {
        let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first.map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        guard plan.resume ?? (state != nil), plan.sync == nil else { return nil }
        let folder = state ?? "/var/lib/marquee"
        let file = main ? fileName : "position-\(fileSafe(screen)).json"
        return PositionKeeper(path: (folder as NSString).appendingPathComponent(file), screen: screen, config: config, logger: logger)
    }

    /// A screen's name as it may stand in a file name: a `/` (or anything but letters, digits,
    /// `-`, `_` and `.`) percent-encoded, so no name reaches outside the state directory.
    static func fileSafe(_ name: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-_.")
        return name.addingPercentEncoding(withAllowedCharacters: allowed) ?? "screen"
    }

    /// Where to start `items`, the queue a player started now begins with (with a timetable,
    /// `daypart`'s): the saved item and time when the config, the daypart and the item are the
    /// same; nil (from the top) otherwise, said in one line. `config`: the digest of the config
    /// `items` come from, when it is not the one in force yet (a fetched config kept from the
    /// last run, before it plays).
    package func resumePoint(for items: [QueueItem], daypart: String? = nil, config: String? = nil) -> ResumePoint? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        guard let saved = try? JSONDecoder().decode(SavedPosition.self, from: data) else {
            logger.warning("resume: \(path) is not a saved position; starting from the top")
            return nil
        }
        guard saved.config == config ?? self.config(), saved.screen == screen else {
            logger.info("resume: the config changed since the position was saved (\(saved.savedAt)); starting from the top")
            return nil
        }
        guard saved.daypart == daypart else {
            logger.info("resume: the position was saved in \(saved.daypart.map { "daypart \($0)" } ?? "no daypart"), and \(daypart.map { "daypart \($0)" } ?? "nothing") is scheduled now; starting from its top")
            return nil
        }
        // The status (and so the saved position) names a URL with its credentials taken out.
        guard saved.index < items.count, CredentialRedaction.redacted(items[saved.index].url) == saved.url, items[saved.index].id == saved.id, saved.time.isFinite else {
            logger.info("resume: item \(saved.index + 1) is no longer \(saved.url); starting from the top")
            return nil
        }
        let time = MediaTime(Int64((max(0, saved.time) * 1000).rounded()), per: 1000)
        let inDaypart = daypart.map { " of daypart \($0)" } ?? ""
        logger.info("resume: item \(saved.index + 1)/\(items.count)\(inDaypart) at \(String(format: "%.3f", time.seconds)) s (saved \(saved.savedAt))")
        return ResumePoint(index: saved.index, time: time, daypart: daypart)
    }

    /// `resumePoint` as the intake asks it, when the first playlist of a run whose content comes
    /// later goes to the player.
    package func lookup(config: String? = nil) -> ResumeLookup {
        { [self] items, daypart in resumePoint(for: items, daypart: daypart, config: config) }
    }

    /// Saves `status()` every `interval` until `stop()`.
    package func start(status: @escaping @Sendable () -> PlayerStatusSnapshot) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + Self.interval, repeating: Self.interval)
        timer.setEventHandler { [weak self] in self?.save(status()) }
        timer.resume()
        lock.withLock { self.timer = timer }
    }

    /// The quit was asked: `finish` keeps the frame on screen at the end.
    package func quitWasAsked() {
        lock.withLock { quitAsked = true }
    }

    /// Stops the saves; after a quit, saves the frame on screen last. `status` is read once every
    /// event has been folded into it: a frame that went up while the quit was handled is the last
    /// one shown, and the one a restart shows first.
    package func finish(with status: @autoclosure () -> PlayerStatusSnapshot) {
        lock.withLock { timer }?.cancel()
        queue.sync {}
        if lock.withLock({ quitAsked }) { save(status()) }
    }

    /// Saves what `status` says is on screen, with the daypart whose queue it is in; nothing while
    /// no item is (a card, a stop).
    package func save(_ status: PlayerStatusSnapshot, at date: Date = Date()) {
        let playback = status.playback
        guard let index = playback.itemIndex, let onScreen = playback.position else { return }
        let position = SavedPosition(screen: screen, daypart: status.details.daypart, index: index, id: playback.itemID, url: playback.itemURL,
                                     time: (onScreen.seconds * 1000).rounded() / 1000, config: config(),
                                     savedAt: UTCTimestamp.text(milliseconds: UTCTimestamp.milliseconds(seconds: date.timeIntervalSince1970)))
        lock.withLock {
            // The same frame is not written twice (a pause, a still): a device's flash is spared.
            guard lastSaved.map({ $0.index != position.index || $0.time != position.time || $0.url != position.url }) ?? true else { return }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            do {
                let folder = (path as NSString).deletingLastPathComponent
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try DurableFile.writeAtomically(try encoder.encode(position), to: path, cacheDirectory: folder)
                lastSaved = position
            } catch {
                if lastSaved != nil || position.index == 0 {
                    logger.warning("resume: cannot save the position to \(path): \(error)")
                }
                lastSaved = nil
            }
        }
    }
}
