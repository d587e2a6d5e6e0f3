import CFFmpeg
import Synchronization

/// What FFmpeg's interrupt callback consults, so that no blocking network call outlives its deadline.
///
/// FFmpeg polls `AVIOInterruptCB` about every 100 ms while it waits on a socket (connect, TLS
/// handshake, reading a response, reconnect back-offs, the nested opens of HLS segments). A server
/// that accepts and then says nothing would otherwise hold the demux thread, and the whole playlist,
/// forever. `rw_timeout` covers silence on an open socket; this also covers the total time of one
/// operation, however the time is spent. Atomics, because the callback may run on any thread FFmpeg uses.
final class InterruptDeadline: Sendable {
    /// The `now()` after which calls are interrupted; `Int64.max` while unarmed.
    private let deadline = Atomic<Int64>(.max)
    private let cancelled = Atomic<Bool>(false)
    /// The callback has told FFmpeg to stop since the last `arm(for:)`.
    private let fired = Atomic<Bool>(false)

    /// Starts the clock for one operation; `nil` means no deadline (local files).
    func arm(for timeout: Duration?) {
        fired.store(false, ordering: .relaxed)
        guard let timeout else {
            deadline.store(.max, ordering: .relaxed)
            return
        }
        let (end, overflow) = Self.now().addingReportingOverflow(Self.nanoseconds(in: timeout))
        deadline.store(overflow ? .max : end, ordering: .relaxed)
    }

    func disarm() {
        deadline.store(.max, ordering: .relaxed)
    }

    /// Interrupts every current and future call of the container using this object, for a player that
    /// is stopping or skipping the item. Safe from any thread; there is no undo.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Whether the callback has stopped something FFmpeg was doing (deadline passed, or cancelled)
    /// since the operation was armed. What the call then returns is not always an error: demuxers
    /// that own their I/O take an interrupted read as the end of it (HLS goes on with the next
    /// segment, or reports the end of the stream), so the owner asks this rather than the code alone.
    var hasFired: Bool { fired.load(ordering: .relaxed) }

    /// The C callback's answer: true stops the blocking call with AVERROR_EXIT.
    func shouldInterrupt() -> Bool {
        let stop = cancelled.load(ordering: .relaxed) || Self.now() >= deadline.load(ordering: .relaxed)
        if stop { fired.store(true, ordering: .relaxed) }
        return stop
    }

    /// The callback FFmpeg stores, with this object as its opaque pointer. The owner of the
    /// `AVFormatContext` keeps this object alive for as long as the context exists.
    var callback: AVIOInterruptCB {
        AVIOInterruptCB(
            callback: { opaque in
                guard let opaque else { return 0 }
                return Unmanaged<InterruptDeadline>.fromOpaque(opaque).takeUnretainedValue().shouldInterrupt() ? 1 : 0
            },
            opaque: Unmanaged.passUnretained(self).toOpaque())
    }

    /// Nanoseconds on a monotonic clock since the first use; only differences matter.
    private static func now() -> Int64 {
        nanoseconds(in: ContinuousClock.now - origin)
    }

    private static let origin = ContinuousClock.now

    private static func nanoseconds(in duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : whole + attoseconds / 1_000_000_000
    }
}
