import Dispatch
import Foundation
import MarqueeCore

/// What a scheduled config gives a QueuePlayer: the dayparts' playlists, the wall clock they are
/// timed on, and a thread of its own to work the timetable out on, never the present thread (a
/// timetable that does not change for months is searched a year ahead).
public final class PlaylistSchedule: Sendable {
    public let playlists: ScheduledPlaylists
    /// The wall clock the windows are read on: the system's, or for `--clock fast` and tests, a
    /// start instant plus the playback clock's time, so schedules run as fast as playback does.
    public let wallClock: @Sendable () -> Date
    private let queue = DispatchQueue(label: "marquee.schedule")

    public init(playlists: ScheduledPlaylists, wallClock: @escaping @Sendable () -> Date = { Date() }) {
        self.playlists = playlists
        self.wallClock = wallClock
    }

    /// The agenda from now, on the caller's thread: before playback starts.
    func agendaNow() -> ScheduleAgenda {
        ScheduleAgenda.compute(playlists.timetable, from: wallClock())
    }

    /// The agenda from the wall clock's time when the work starts, handed to `deliver` on this
    /// schedule's own thread.
    func computeAgenda(then deliver: @escaping @Sendable (ScheduleAgenda) -> Void) {
        queue.async { [self] in deliver(agendaNow()) }
    }
}
