import CDRM
import Glibc

/// Reads page-flip completion events from the card's fd. Only one flip is ever in flight, so any
/// flip event completes it; user_data is not needed.
final class DRMPageFlipWaiter {
    private let device: DRMDevice
    private(set) var isFlipPending = false
    /// Longer than any real frame (a 24 Hz mode is 42 ms); a driver that never answers would
    /// otherwise hang the present thread for good.
    static let timeoutMilliseconds: Int32 = 1000

    init(device: DRMDevice) {
        self.device = device
    }

    func flipQueued() {
        isFlipPending = true
    }

    /// Blocks until the pending flip (if any) completed.
    func waitForPendingFlip() throws(DRMError) {
        guard isFlipPending else { return }
        var context = drmEventContext()
        context.version = 2
        // The handler cannot capture; the event's arrival is all we need, read back below.
        context.page_flip_handler = { _, _, _, _, _ in }
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let start = Double(deadline.tv_sec) * 1000 + Double(deadline.tv_nsec) / 1e6
        while isFlipPending {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let elapsed = Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1e6 - start
            let remaining = Int32(max(0, Double(Self.timeoutMilliseconds) - elapsed))
            var descriptor = pollfd(fd: device.fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, remaining)
            if ready < 0 {
                if errno == EINTR { continue }
                throw DRMError(code: errno, operation: "poll(\(device.path)) for a page-flip event")
            }
            if ready == 0 {
                // Forget the flip: the next commit will fail with EBUSY if it is still queued,
                // which reports the stuck driver rather than hiding it.
                isFlipPending = false
                throw DRMError(code: ETIMEDOUT, operation: "waiting \(Self.timeoutMilliseconds) ms for a page-flip event")
            }
            try drmChecked(drmHandleEvent(device.fd, &context), "drmHandleEvent(\(device.path))")
            // drmHandleEvent reads every queued event; with one flip in flight, that was it.
            isFlipPending = false
        }
    }
}
