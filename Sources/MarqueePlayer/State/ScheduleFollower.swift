import Foundation
import MarqueeCore

/// The timetable as the present thread follows it: the schedule (dayparts and their windows), the
/// agenda of changes still to come (worked out on the schedule's own thread), and what the
/// timetable said last. A change is acted on when the state differs from the last one, so a
/// command in between (a `displayOn` in an off window) holds until the timetable next changes.
struct ScheduleFollower {
    /// The dayparts and their timetable; nil: one playlist, all the time. A reload replaces it.
    var schedule: PlaylistSchedule?
    /// The changes still to come, the next first.
    private(set) var agenda: [ScheduleChange] = []
    /// The timetable never changes after the agenda's last entry: nothing more to ask for.
    private(set) var agendaIsComplete = true
    /// A new agenda has been asked for and not arrived yet.
    var agendaRequested = false
    /// What the timetable said last.
    var applied: ScheduleState?

    init(schedule: PlaylistSchedule? = nil) {
        self.schedule = schedule
    }

    var nextChange: ScheduleChange? { agenda.first }

    /// The next change is due by the schedule's wall clock.
    var isChangeDue: Bool {
        guard let schedule, let next = agenda.first else { return false }
        return next.start <= schedule.wallClock()
    }

    /// A fresh agenda replaces the one held (and answers the request for it).
    mutating func adopt(_ agenda: ScheduleAgenda) {
        self.agenda = agenda.changes
        agendaIsComplete = agenda.isComplete
        agendaRequested = false
    }

    /// No timetable any more (a reload without one): nothing to follow, nothing applied.
    mutating func dropTimetable() {
        agenda = []
        agendaIsComplete = true
        applied = nil
    }

    /// The last of the changes due by `now`, taken off the agenda with the ones before it: after a
    /// wait (a stall, a wall-clock jump) only where the timetable is now matters.
    mutating func takeDueChange(at now: Date) -> ScheduleChange? {
        var due: ScheduleChange?
        while let next = agenda.first, next.start <= now {
            due = next
            agenda.removeFirst()
        }
        return due
    }

    /// The agenda is running low and more may come: ask the schedule's thread for it (once).
    var needsMoreAgenda: Bool {
        agenda.count < 2 && !agendaIsComplete && !agendaRequested
    }
}
