import Foundation
import MarqueeCore

/// Hands each CRTC its own page-flip completions when several screens share one card fd.
///
/// One DRM master means one fd, and the kernel queues the flip events of every CRTC on it. A
/// present thread that read them all and kept only its own would swallow another screen's
/// completion, and that screen would wait a whole timeout for an event already read. So the
/// reading is shared: at most one waiting thread reads the fd at a time, files every event under
/// the CRTC it names (page_flip_handler2's crtc_id), and wakes the others; each thread returns
/// only once its own CRTC's event is filed.
///
/// The fd itself is behind `read`, so the logic runs in host tests without a card.
final class DRMFlipEventDemultiplexer: @unchecked Sendable {
    /// Waits at most `timeoutMilliseconds` for the fd to be readable, then reads what is queued:
    /// the CRTC ids of the flips completed (empty when none came in time).
    typealias ReadEvents = (_ timeoutMilliseconds: Int32) -> Result<[UInt32], SystemError>

    private let read: ReadEvents
    private let condition = MonotonicCondition()
    /// Completions read but not yet taken by their CRTC's thread.
    private var arrived: Set<UInt32> = []
    /// A thread is in `read`; the others wait on the condition for what it files.
    private var isReading = false

    init(read: @escaping ReadEvents) {
        self.read = read
    }

    /// Called before a flip is committed on `crtcID`: a completion left from an earlier flip (one
    /// that timed out and came late) must not be taken for this one's.
    func expectFlip(on crtcID: UInt32) {
        condition.withLock { _ = arrived.remove(crtcID) }
    }

    /// Blocks until `crtcID`'s flip completed; false when it did not within the timeout. Any
    /// other CRTC's completion read meanwhile is kept for its own thread.
    func waitForFlip(on crtcID: UInt32, timeoutMilliseconds: Int32) throws(SystemError) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeoutMilliseconds))
        condition.lock()
        defer { condition.unlock() }
        while !arrived.contains(crtcID) {
            let remaining = (deadline - ContinuousClock.now) / .seconds(1)
            if remaining <= 0 { return false }
            if isReading {
                // Whoever reads files our event too and broadcasts; or our deadline passes.
                _ = condition.wait(until: deadline)
                continue
            }
            isReading = true
            condition.unlock()
            let result = read(Int32(max(1, (remaining * 1000).rounded(.up))))
            condition.lock()
            isReading = false
            condition.broadcast()
            switch result {
            case .success(let crtcs): arrived.formUnion(crtcs)
            case .failure(let error): throw error
            }
        }
        arrived.remove(crtcID)
        return true
    }
}
