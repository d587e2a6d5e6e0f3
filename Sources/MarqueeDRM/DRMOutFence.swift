import Glibc
import MarqueeCore

/// Owns a sync_file fd the kernel handed back from an atomic commit (an out-fence, such as
/// WRITEBACK_OUT_FENCE_PTR's): it becomes readable once the work it stands for is done.
final class DRMOutFence {
    private let fd: Int32

    /// `fd` as the kernel wrote it; -1 (none written) is an error naming `what`.
    init(fd: Int32, what: String) throws(SystemError) {
        guard fd >= 0 else { throw SystemError(code: EINVAL, operation: "\(what): the kernel returned no out-fence") }
        self.fd = fd
    }

    deinit {
        close(fd)
    }

    /// True once signalled; false when `timeoutMilliseconds` passed first.
    func wait(timeoutMilliseconds: Int32) throws(SystemError) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        // A poll a signal interrupts is asked again for what is left of the wait, not all of it.
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeoutMilliseconds))
        let ready = try SystemCall.retrying("poll(out-fence)") {
            let left = (deadline - ContinuousClock.now) / .milliseconds(1)
            return poll(&descriptor, 1, Int32(max(0, left.rounded(.up))))
        }
        return ready > 0
    }
}
