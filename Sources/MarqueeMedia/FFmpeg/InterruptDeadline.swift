import CFFmpeg
import Synchronization

/// What FFmpeg's interrupt callback consults, so that no blocking network call outlives its deadline.
///
/// FFmpeg polls `AVIOInterruptCB` about every 100 ms while it waits on a socket (connect, TLS
/// handshake, reading a response, reconnect back-offs, the nested opens of HLS segments). A server
/// that accepts and then says nothing would otherwise hold the demux thread, and the whole playlist,
/// forever. `rw_timeout` covers silence on an open socket; this also covers time spent elsewhere
/// (reconnect back-offs, a server that answers each new request and then says nothing).
///
/// The deadline counts time without data, not time per operation: every byte the watched container
/// receives restarts it. A slow link (50 KB/s) can take longer than the timeout to deliver one large
/// packet, and failing it while bytes still arrive would turn a slow source into a dead one.
/// Atomics, because the callback may run on any thread FFmpeg uses.
final class InterruptDeadline: Sendable {
    /// The `now()` after which calls are interrupted; `Int64.max` while unarmed.
    private let deadline = Atomic<Int64>(.max)
    /// The armed operation's timeout in nanoseconds, to restart the deadline with; `Int64.max` while unarmed.
    private let timeout = Atomic<Int64>(.max)
    /// The address of the `AVFormatContext` whose byte count is the progress that restarts the
    /// deadline; 0 when none is watched. Only read inside the callback, which FFmpeg calls during
    /// calls on that context, while it is alive (see `watch(_:)`).
    private let watchedContext = Atomic<Int>(0)
    /// The byte count the deadline was last restarted at; -1 before any.
    private let progressSeen = Atomic<Int64>(-1)
    private let cancelled = Atomic<Bool>(false)
    /// The callback has told FFmpeg to stop since the last `arm(for:)`.
    private let fired = Atomic<Bool>(false)

    /// Starts the clock for one operation; `nil` means no deadline (local files).
    func arm(for timeout: Duration?) {
        fired.store(false, ordering: .relaxed)
        guard let timeout else {
            self.timeout.store(.max, ordering: .relaxed)
            deadline.store(.max, ordering: .relaxed)
            return
        }
        let nanoseconds = Self.nanoseconds(in: timeout)
        self.timeout.store(nanoseconds, ordering: .relaxed)
        progressSeen.store(bytesReceived() ?? -1, ordering: .relaxed)
        deadline.store(Self.adding(nanoseconds, to: Self.now()), ordering: .relaxed)
    }

    func disarm() {
        timeout.store(.max, ordering: .relaxed)
        deadline.store(.max, ordering: .relaxed)
    }

    /// Counts the bytes `context` receives (its `AVIOContext.bytes_read`) as progress. The caller
    /// guarantees the context outlives every FFmpeg call made on it while watched, and calls
    /// `unwatch()` before freeing it. Demuxers that own their I/O (HLS) read through contexts of
    /// their own, which this cannot see: for them only `rw_timeout` and the deadline per operation count.
    func watch(_ context: UnsafeMutablePointer<AVFormatContext>) {
        watchedContext.store(Int(bitPattern: context), ordering: .relaxed)
    }

    func unwatch() {
        watchedContext.store(0, ordering: .relaxed)
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
        let now = Self.now()
        let timeout = timeout.load(ordering: .relaxed)
        if timeout != .max, let bytes = bytesReceived(), bytes != progressSeen.load(ordering: .relaxed) {
            // Data arrived since the last look: the source is slow, not silent.
            progressSeen.store(bytes, ordering: .relaxed)
            deadline.store(Self.adding(timeout, to: now), ordering: .relaxed)
        }
        let stop = cancelled.load(ordering: .relaxed) || now >= deadline.load(ordering: .relaxed)
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

    /// Bytes the watched context has received so far; nil when none is watched or it has no byte stream yet.
    private func bytesReceived() -> Int64? {
        guard let context = UnsafeMutablePointer<AVFormatContext>(bitPattern: watchedContext.load(ordering: .relaxed)),
              let io = context.pointee.pb else { return nil }
        return io.pointee.bytes_read
    }

    private static func adding(_ nanoseconds: Int64, to time: Int64) -> Int64 {
        let (end, overflow) = time.addingReportingOverflow(nanoseconds)
        return overflow ? .max : end
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
