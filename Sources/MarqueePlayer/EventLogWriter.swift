import Foundation
import MarqueeCore

/// `--events FILE|-`: one JSON object per line for every event, stamped with seconds since start
/// on the player's clock (so `--clock fast` logs are reproducible). Lines are flushed as written
/// so an operator tailing the file, or a test reading a pipe, sees each event at once. Frame
/// events are written only when asked for (`--trace-frames`): there are dozens a second.
public final class EventLogWriter: @unchecked Sendable {
    private let handle: FileHandle
    private let clock: PlaybackClock
    private let includesFrames: Bool
    private let lock = NSLock()

    public init(handle: FileHandle, clock: PlaybackClock, includesFrames: Bool = false) {
        self.handle = handle
        self.clock = clock
        self.includesFrames = includesFrames
    }

    /// Opens (creating or truncating) `path`, or standard output for `-`.
    public convenience init(path: String, clock: PlaybackClock, includesFrames: Bool = false) throws {
        if path == "-" {
            self.init(handle: .standardOutput, clock: clock, includesFrames: includesFrames)
            return
        }
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw EventLogError(path: path)
        }
        self.init(handle: try FileHandle(forWritingTo: URL(fileURLWithPath: path)), clock: clock, includesFrames: includesFrames)
    }

    /// Writes `event` stamped `secondsSinceStart`, or now when nil (events delivered on another
    /// thread carry the time they happened, not the time they were written).
    public func write(_ event: PlayerEvent, at secondsSinceStart: Double? = nil) {
        if case .frame = event, !includesFrames { return }
        let line = EventLogRecord(secondsSinceStart: secondsSinceStart ?? clock.now().seconds, event: event).jsonLine() + "\n"
        lock.withLock { handle.write(Data(line.utf8)) }
    }
}

public struct EventLogError: Error, CustomStringConvertible {
    public let path: String
    public var description: String { "\(path): cannot create the events file" }
}
