import Foundation
import MarqueeCore

/// Following the timetable on the present thread. The timetable is worked out on the schedule's
/// own thread into an agenda (ScheduleAgenda); here the present thread only compares the wall
/// clock with the next change, at every wake-up between frames and while waiting for commands.
///
/// A change acts on what differs from the last one: a new daypart (or a change in which of its
/// items are in their windows) replaces the queue through the reload path, so the item on screen
/// plays to its end unless the daypart says `interrupt: true` (while the display is off, the new
/// list waits for it to come on, from its top); the display goes off or on as the
/// `displayOff`/`displayOn` commands, from source `schedule`. A command in between (a `displayOn` during an off window) holds until the
/// timetable next changes.
extension QueuePlayer {
    /// The next change is due on the wall clock (present thread).
    var isScheduleChangeDue: Bool { timetable.isChangeDue }

    /// The daypart whose queue plays, by its config name; nil without a timetable or while nothing
    /// is scheduled.
    var daypartPlaying: String? {
        timetable.applied.flatMap { timetable.schedule?.playlists.name(of: $0) }
    }

    /// The wall clock jumped (an NTP sync out of 1970, `date -s`): the timetable is worked out again
    /// from the new time, and whatever it says now is acted on. From any thread; returns at once.
    public func wallClockChanged() {
        enqueue(.wallClockChanged)
    }

    /// Asks the schedule's thread for the agenda from now; it arrives as a request.
    func requestScheduleAgenda() {
        guard let schedule = timetable.schedule else { return }
        timetable.agendaRequested = true
        schedule.computeAgenda { [weak self] in self?.enqueue(.scheduleAgenda($0, from: schedule)) }
    }

    /// A reloaded config's timetable (nil: the config has none). Its queue for now was just put in
    /// place (`replaceQueueNow`); what it says about the display is acted on if it differs.
    func adopt(_ replacement: TimetableReplacement) {
        timetable.schedule = replacement.schedule
        guard let agenda = replacement.agenda, replacement.schedule != nil else {
            timetable.dropTimetable()
            return
        }
        let now = agenda.changes[0].state
        timetable.applied = ScheduleState(daypart: now.daypart, items: now.items, displayOn: timetable.applied?.displayOn ?? displayIsOn)
        adopt(agenda)
    }

    /// A fresh agenda from the schedule's thread replaces the one held.
    func adopt(_ agenda: ScheduleAgenda) {
        timetable.adopt(agenda)
        applyDueScheduleChanges()
        publishDetails()
    }

    /// Acts on the last change that is due, if any, and asks for more of the agenda before it runs out.
    func applyDueScheduleChanges() {
        guard let schedule = timetable.schedule else { return }
        if let due = timetable.takeDueChange(at: schedule.wallClock()) {
            // A change acts on the item the state machine holds, as a command does.
            announceOpening()
            follow(due.state, in: schedule.playlists)
            publishDetails()
        }
        if timetable.needsMoreAgenda { requestScheduleAgenda() }
    }

    private func follow(_ state: ScheduleState, in playlists: ScheduledPlaylists) {
        let previous = timetable.applied ?? state
        timetable.applied = state
        let powerChanges = previous.displayOn != state.displayOn
        // Off first, so a daypart starting in an off window is not decoded meanwhile.
        if powerChanges && !state.displayOn { commandFromSchedule(.displayOff) }
        if previous.daypart != state.daypart || previous.items != state.items {
            let queue = playlists.queue(for: state, base: settings)
            let name = playlists.name(of: state)
            if !displayIsOn {
                // Nobody sees the screen: the item on it ends now, and the new list starts from its
                // top when the screen comes on, so no item is reported started on a dark screen.
                emit(.daypartChanged(daypart: name, itemCount: queue.items.count, immediately: true))
                let wasPlaying = current != nil || ranOutOfItems
                if current != nil { move(to: nil) }
                replaceQueueNow(QueueReplacement(items: queue.items, settings: queue.settings, immediately: true))
                if wasPlaying && !items.isEmpty { resumeWhenDisplayOn = true }
            } else {
                let interrupt = previous.daypart != state.daypart && playlists.interrupts(into: state)
                emit(.daypartChanged(daypart: name, itemCount: queue.items.count, immediately: interrupt))
                replaceQueueNow(QueueReplacement(items: queue.items, settings: queue.settings, immediately: interrupt))
                // A queue that had run out (nothing scheduled, or repeat off played through) starts
                // the new list; a stop from a command holds.
                if current == nil && ranOutOfItems && !items.isEmpty { resume() }
            }
        }
        if powerChanges && state.displayOn { commandFromSchedule(.displayOn) }
    }

    /// The timetable's own commands go the way of everyone's: logged with their source, then applied.
    private func commandFromSchedule(_ command: Command) {
        emit(.command(.command(command), source: .schedule))
        apply(command)
    }

    /// On a virtual clock, the player clock's time of the timetable's next change: a sleep toward
    /// a frame stops there, as a real clock's short wake-ups do, so the change is acted on before
    /// the frame after it. (A jump to the frame passed over it: a change due within the last frame
    /// before an item boundary came one item late.)
    var scheduleChangeOnVirtualClock: MediaTime? {
        guard realClock is VirtualClock, let schedule = timetable.schedule, let next = timetable.nextChange else { return nil }
        let wait = max(next.start.timeIntervalSince(schedule.wallClock()), 0) * max(clock.rate, 0)
        return clock.now() + MediaTime(Int64((wait * 1_000_000).rounded(.up)), per: 1_000_000)
    }

    /// With a virtual clock (`--clock fast`, tests), waiting for a command while the timetable has
    /// a change coming jumps the clock to it, as the clock jumps to a frame's due time; true when
    /// the change is then due.
    func waitForScheduleOnVirtualClock() -> Bool {
        guard realClock is VirtualClock, let schedule = timetable.schedule, let next = timetable.nextChange else { return false }
        let wait = next.start.timeIntervalSince(schedule.wallClock())
        realClock.sleep(until: realClock.now() + MediaTime(Int64((max(wait, 0) * 1000).rounded(.up)), per: 1000))
        // A wall clock that does not follow the virtual one waits in real time instead of spinning.
        return isScheduleChangeDue
    }
}

extension QueuePlayer {
    /// The status card's line while the timetable has nothing on: what plays next and when, as far
    /// as the agenda held looks ahead.
    var nothingScheduledNote: String {
        guard let schedule = timetable.schedule else { return "Nothing is scheduled now" }
        guard let next = timetable.agenda.first(where: { !$0.state.isIdle }), let name = schedule.playlists.name(of: next.state) else {
            return "Nothing is scheduled now"
        }
        let when = schedule.playlists.timetable.clock.reading(at: next.start)
        return "Nothing is scheduled now; next: \(name) at \(when)"
    }
}
