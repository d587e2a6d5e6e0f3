import CDRM
import Foundation
import Glibc
import MarqueeCore

/// Reads a card's queued DRM events and returns the CRTC of each page-flip completion, for
/// `DRMFlipEventDemultiplexer`.
enum DRMFlipEventReader {
    /// libdrm's handler is a C function that cannot capture: it appends to this, which only the
    /// thread holding `collecting` touches.
    nonisolated(unsafe) private static var collected: [UInt32] = []
    private static let collecting = NSLock()

    static func read(fd: Int32, path: String, timeoutMilliseconds: Int32) -> Result<[UInt32], SystemError> {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        // A poll a signal interrupts is asked again for what is left of the wait, not all of it.
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeoutMilliseconds))
        let ready: Int32
        do {
            ready = try SystemCall.retrying("poll", path: path) {
                let left = (deadline - ContinuousClock.now) / .milliseconds(1)
                return poll(&descriptor, 1, Int32(max(0, left.rounded(.up))))
            }
        } catch {
            return .failure(error)
        }
        if ready == 0 { return .success([]) }
        var context = drmEventContext()
        // Version 3 brings page_flip_handler2, which names the CRTC of each completion (Linux 4.12+,
        // legacy and atomic flips alike).
        context.version = 3
        context.page_flip_handler2 = { _, _, _, _, crtcID, _ in DRMFlipEventReader.collected.append(crtcID) }
        return collecting.withLock {
            collected.removeAll(keepingCapacity: true)
            let status = drmHandleEvent(fd, &context)
            if status != 0 {
                return .failure(SystemError(code: errno, operation: "drmHandleEvent", path: path))
            }
            return .success(collected)
        }
    }
}
