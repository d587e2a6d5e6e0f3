import Logging
import MarqueeCore

/// Concise lines for a journal: one per item start, end or error; nothing per frame.
struct EventLogger {
    let logger: Logger
    let itemCount: Int

    func log(_ event: PlayerEvent) {
        switch event {
        case .itemStarted(let index, let url):
            logger.info("item \(index + 1)/\(itemCount) started: \(url)")
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
        case .volumeChanged(let volume, let muted):
            logger.info("volume: \(Int((volume * 100).rounded())) %\(muted ? " (muted)" : "")")
        default:
            break
        }
    }
}
