import Glibc
import MarqueeCore

/// One CRTC's page flip in flight: at most one at a time. Its completion is read from the card's
/// fd through the device's demultiplexer, which other screens on the same card share.
final class DRMPageFlipWaiter {
    private let device: DRMDevice
    let crtcID: UInt32
    private(set) var isFlipPending = false
    /// Longer than any real frame (a 24 Hz mode is 42 ms); a driver that never answers would
    /// otherwise hang the present thread for good.
    static let timeoutMilliseconds: Int32 = 1000

    init(device: DRMDevice, crtcID: UInt32) {
        self.device = device
        self.crtcID = crtcID
    }

    /// Before the flip's commit: its completion may be read by another screen's thread at once.
    func flipWillQueue() {
        device.flipEvents.expectFlip(on: crtcID)
    }

    func flipQueued() {
        isFlipPending = true
    }

    /// Blocks until the pending flip (if any) completed.
    func waitForPendingFlip() throws(SystemError) {
        guard isFlipPending else { return }
        // Forgotten either way: after a timeout, the next commit will fail with EBUSY if it is
        // still queued, which reports the stuck driver rather than hiding it.
        defer { isFlipPending = false }
        guard try device.flipEvents.waitForFlip(on: crtcID, timeoutMilliseconds: Self.timeoutMilliseconds) else {
            throw SystemError(code: ETIMEDOUT, operation: "waiting \(Self.timeoutMilliseconds) ms for a page-flip event on CRTC \(crtcID)")
        }
    }
}
