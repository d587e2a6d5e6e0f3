import Foundation
import MarqueeCore

/// An item being opened gets `settings.openTimeout` of real time to say it is ready or has failed.
/// Past it, it fails with `timed out opening` and the playlist goes on: whatever holds its decode
/// thread (a FIFO with no writer, a hung NFS or USB path, a server FFmpeg's deadline misses), the
/// present thread does not wait with it.
extension QueuePlayer {
    /// The first output of `pipeline`, waiting until its open deadline in heartbeat slices. Nil when
    /// it was cancelled, or a command or a quit is waiting: the run loop applies it and comes back,
    /// and the deadline, counted from the pipeline's start, is not reset by that.
    func awaitOpening(_ pipeline: ItemPipeline) -> ItemPipeline.Output? {
        let deadline = pipeline.startedAt + openTimeout(for: pipeline.item)
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            let slice = max(0, min(Self.heartbeatInterval, remaining / .seconds(1)))
            switch pipeline.next(waitingAtMost: slice) {
            case .element(let output):
                return output
            case .closed:
                return nil
            case .timedOut:
                if ContinuousClock.now >= deadline { return abandonOpening(pipeline) }
                heartbeat()
                if hasPendingWork { return nil }
            }
        }
    }

    /// Gives up on an open that has not returned: its thread is cancelled and never joined, and
    /// whatever it opens late is dropped at its first push.
    private func abandonOpening(_ pipeline: ItemPipeline) -> ItemPipeline.Output {
        pipeline.cancel()
        abandonedOpens.append(pipeline)
        return .failed(PlaybackError(url: pipeline.item.url, reason: Self.openTimedOutReason(openTimeout(for: pipeline.item))))
    }

    /// A local open gets `openTimeout`. A remote one is ruled by FFmpeg's network timeout, which
    /// counts time without data, so a slow server that keeps answering is not cut off; the
    /// player's deadline is only its backstop there, three times as long.
    private func openTimeout(for item: QueueItem) -> Duration {
        Self.isRemote(item.source) ? settings.openTimeout * 3 : settings.openTimeout
    }

    /// The opener for item `index`: the real one, unless an abandoned open of the same URL is still
    /// stuck; then the item fails at once instead of stranding another thread beside it.
    func opener(forItem index: Int) -> MediaOpening {
        abandonedOpens.removeAll { $0.hasOpenReturned }
        let source = items[index].source
        guard abandonedOpens.contains(where: { $0.item.source == source }) else { return opener }
        return StuckOpenRefusal(reason: Self.openTimedOutReason(openTimeout(for: items[index])) + "; its last open has not returned yet")
    }

    /// `timed out opening (no answer in 5 s)`.
    static func openTimedOutReason(_ timeout: Duration) -> String {
        return "timed out opening (no answer in \(String(format: "%g", timeout / .seconds(1))) s)"
    }
}

/// Fails every open at once: the item's previous open is still stuck in the kernel.
private struct StuckOpenRefusal: MediaOpening {
    let reason: String

    func open(_ url: String) throws -> MediaReader {
        throw PlaybackError(url: url, reason: reason)
    }
}
