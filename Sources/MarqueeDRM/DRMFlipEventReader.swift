import CDRM
import Foundation
import Glibc

/// Reads a card's queued DRM events and returns the CRTC of each page-flip completion, for
/// `DRMFlipEventDemultiplexer`.
enum DRMFlipEventReader {
    /// libdrm's handler is a C function that cannot capture: it appends to this, which only the
    /// thread holding `collecting` touches.
    nonisolated(unsafe) private static var collected: [UInt32] = []
    private static let collecting = NSLock()

    static func read(fd: Int32, path: String, timeoutMilliseconds: Int32) -> Result<[UInt32], DRMError> {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, timeoutMilliseconds)
        if ready < 0 {
            if errno == EINTR { return .success([]) }
            return .failure(DRMError(code: errno, operation: "poll(\(path)) for a page-flip event"))
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
                return .failure(DRMError(code: errno, operation: "drmHandleEvent(\(path))"))
            }
            return .success(collected)
        }
    }
}
