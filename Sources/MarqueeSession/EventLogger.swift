import Logging
import MarqueeCore

/// Concise lines for a journal: one per item start, end or error; nothing per frame.
package final class EventLogger: @unchecked Sendable {
    package let logger: Logger
    /// Changes with a reloaded playlist; events arrive on the present thread only.
    private(set) var itemCount: Int
    /// The item on screen, for the stall lines.
    private var current: (index: Int, url: String)?
    /// When the item on screen stalled, while it waits to keep up again.
    private var stalledAt: ContinuousClock.Instant?

    package init(logger: Logger, itemCount: Int) {
        self.logger = logger
        self.itemCount = itemCount
    }

    /// `item 2/3 (http://cdn/menu.mp4)`.
    private var itemLabel: String {
        guard let current else { return "playback" }
        return "item \(current.index + 1)/\(itemCount) (\(current.url))"
    }

    package func log(_ event: PlayerEvent) {
        switch event {
        case .itemStarted(let index, let url, let title, _):
            current = (index, url)
            stalledAt = nil
            // `item 1/3 started: Intro (file:///media/intro.mp4)`: the title, when there is one, first.
            logger.info("item \(index + 1)/\(itemCount) started: \(title.map { "\($0) (\(url))" } ?? url)")
        case .itemEnded(let index, let url, let reason, _) where reason != .playbackError:
            logger.info("item \(index + 1)/\(itemCount) ended (\(reason.rawValue)): \(url)")
        case .error(let message) where message.hasPrefix("every item failed"):
            logger.warning("\(message)")
        case .error(let message):
            // A failed item raises this one line, `URL: cause`, besides its itemEnded.
            logger.error("\(message)")
        case .repeatModeChanged(let mode):
            logger.info("repeat mode: \(mode.rawValue)")
        case .scalingModeChanged(let mode):
            logger.info("scaling mode: \(mode.rawValue)")
        case .command(let action, let source):
            logger.info("command \(action) from \(source)")
        case .queueReplaced(let count, let immediately):
            itemCount = count
            logger.info("playlist replaced: \(count) item\(count == 1 ? "" : "s"), \(immediately ? "now" : "from the next item")")
        case .volumeChanged(let volume, let muted):
            logger.info("volume: \(Int((volume * 100).rounded())) %\(muted ? " (muted)" : "")")
        case .rateChanged(let rate, let sound):
            let heard = switch sound {
            case .normal: ""
            case .stretched: ", sound time-stretched (pitch kept)"
            case .muted: ", sound muted"
            }
            logger.info("rate: \(rate)\(heard)")
        case .displayPowerChanged(let on):
            logger.info("display: \(on ? "on" : "off")")
        case .daypartChanged(let daypart, let itemCount, let immediately):
            let when = immediately ? "now" : "once the item playing ends"
            if let daypart {
                logger.info("schedule: daypart \(daypart) (\(itemCount) item\(itemCount == 1 ? "" : "s") in their windows) from \(when)")
            } else {
                logger.info("schedule: nothing is scheduled from \(when)")
            }
        case .playbackStalled:
            stalledAt = .now
            logger.warning("\(itemLabel) stalled: its source is slower than real time; waiting until it can keep up")
        case .loadStateChanged(.playthroughOK):
            guard let since = stalledAt else { break }
            stalledAt = nil
            let seconds = (ContinuousClock.now - since) / .seconds(1)
            logger.notice("\(itemLabel) resumed after \(String(format: "%.1f", seconds)) s stalled")
        default:
            break
        }
    }
}
