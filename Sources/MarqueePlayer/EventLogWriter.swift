import Foundation
import MarqueeCore

/// `--events FILE|-`: one JSON object per line for every event, stamped with seconds since start
/// on the player's clock (so `--clock fast` logs are reproducible). Lines are written as they come
/// so an operator tailing the file, or a test reading a pipe, sees each event at once. Frame
/// events are written only when asked for (`--trace-frames`): there are dozens a second.
///
/// A write that fails (a full disk, `/dev/full`, a pipe whose reader went away) never stops
/// playback: the first failure is reported once through `reportProblem`, later ones are not, and
/// writing is tried again with each event, so a file that becomes writable again is noticed.
///
/// A FIFO is opened without waiting for its reader: open(2) would block until one came, and the
/// player with it. Until a reader opens it, events are lost (one warning) and the open is tried
/// again with each event.
public final class EventLogWriter: @unchecked Sendable {
    /// -1 while a FIFO waits for its reader.
    private var descriptor: Int32
    /// The FIFO to open once it has a reader.
    private var waitingFIFO: String?
    /// How the destination is named in a warning: the path, or `standard output`.
    private let name: String
    private let clock: PlaybackClock
    private let includesFrames: Bool
    private let lock = NSLock()
    private var reportProblem: @Sendable (String) -> Void = { _ in }
    /// Events not written since the last failure was reported; nil while writes succeed.
    private var lostSinceFailure: Int?

    /// Writes to `descriptor` (left open: the caller owns it), named `name` in warnings.
    public init(descriptor: Int32, name: String, clock: PlaybackClock, includesFrames: Bool = false) {
        self.descriptor = descriptor
        self.name = name
        self.clock = clock
        self.includesFrames = includesFrames
    }

    /// Opens (creating or truncating) `path`, or standard output for `-`. Devices and FIFOs are
    /// opened as they are, not replaced by a new file. `/dev/stdout` is standard output itself:
    /// opened again, a pipe with no reader left would block the open for ever.
    public convenience init(path: String, clock: PlaybackClock, includesFrames: Bool = false) throws {
        if path == "-" || path == "/dev/stdout" {
            self.init(descriptor: STDOUT_FILENO, name: path == "-" ? "standard output" : path, clock: clock, includesFrames: includesFrames)
            return
        }
        var status = stat()
        if stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO {
            let descriptor = Self.openFIFO(path)
            guard descriptor >= 0 || errno == ENXIO else { throw EventLogError(path: path, cause: DescriptorWrite.describe(errno)) }
            self.init(descriptor: descriptor, name: path, clock: clock, includesFrames: includesFrames)
            if descriptor < 0 { waitingFIFO = path }
            return
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw EventLogError(path: path, cause: DescriptorWrite.describe(errno)) }
        // Kept open for the life of the process, as the events file always was.
        self.init(descriptor: descriptor, name: path, clock: clock, includesFrames: includesFrames)
    }

    /// Opens a FIFO for writing if it has a reader (else -1 with ENXIO), then makes writes block
    /// again, so each line goes out whole (the delivery thread waits for a slow reader, never the
    /// present thread).
    private static func openFIFO(_ path: String) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        if descriptor >= 0 { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK) }
        return descriptor
    }

    /// Writes `data`, opening a waiting FIFO first; the errno of a failure, or nil.
    private func writeLocked(_ data: Data) -> Int32? {
        if let fifo = waitingFIFO {
            let opened = Self.openFIFO(fifo)
            guard opened >= 0 else { return errno }
            descriptor = opened
            waitingFIFO = nil
        }
        return DescriptorWrite.all(data, to: descriptor)
    }

    /// Where the one warning about a failed write goes (the journal, in `marquee play`).
    public func onProblem(_ report: @escaping @Sendable (String) -> Void) {
        lock.withLock { reportProblem = report }
    }

    /// Writes `event` stamped `secondsSinceStart`, or now when nil (events delivered on another
    /// thread carry the time they happened, not the time they were written).
    public func write(_ event: PlayerEvent, at secondsSinceStart: Double? = nil) {
        if case .frame = event, !includesFrames { return }
        let line = EventLogRecord(secondsSinceStart: secondsSinceStart ?? clock.now().seconds, event: event).jsonLine() + "\n"
        let (report, message): (@Sendable (String) -> Void, String?) = lock.withLock {
            let failure = writeLocked(Data(line.utf8))
            switch (failure, lostSinceFailure) {
            case (ENXIO?, nil) where waitingFIFO != nil:
                lostSinceFailure = 1
                return (reportProblem, "events: \(name) is a FIFO with no reader yet; events are lost until one opens it")
            case (let code?, nil):
                lostSinceFailure = 1
                return (reportProblem, "events: cannot write to \(name): \(DescriptorWrite.describe(code)); events are lost until it can")
            case (_?, let lost?):
                lostSinceFailure = lost + 1
                return (reportProblem, nil)
            case (nil, let lost?):
                lostSinceFailure = nil
                return (reportProblem, "events: writing to \(name) again; \(lost) event\(lost == 1 ? " was" : "s were") lost")
            case (nil, nil):
                return (reportProblem, nil)
            }
        }
        if let message { report(message) }
    }
}

public struct EventLogError: Error, CustomStringConvertible {
    public let path: String
    public var cause: String?
    public init(path: String, cause: String? = nil) {
        self.path = path
        self.cause = cause
    }
    public var description: String { "\(path): cannot create the events file\(cause.map { " (\($0))" } ?? "")" }
}
