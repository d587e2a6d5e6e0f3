import Foundation
import MarqueeCore
import Synchronization
import Testing
@testable import MarqueePlayer

/// The engine following a timetable on the virtual clock: the wall clock is a start instant plus
/// the clock's time, so windows a few seconds apart are crossed in milliseconds, deterministically.
/// Frames are 25 fps; every clip is 4 s.
@Suite struct QueuePlayerScheduleTests {
    static let utc = WallClock(timeZone: TimeZone(identifier: "UTC")!)
    static let frame = MediaTime(1, per: 25)
    static let media = ScriptedMedia([
        "breakfast": .video(frames: 100, frameDuration: frame),
        "lunch": .video(frames: 100, frameDuration: frame),
        "soup": .video(frames: 100, frameDuration: frame),
        "welcome": .video(frames: 100, frameDuration: frame),
    ])

    /// 2026-11-26 (a Thursday) at `time`, UTC.
    static func at(_ time: String, on date: String = "2026-11-26") -> Date {
        utc.instant(of: LocalDateTime(parsingISO8601: "\(date)T\(time)")!)
    }

    static func window(_ from: String, _ to: String) -> Schedule {
        Schedule([ScheduleWindow(from: TimeOfDay(parsing: from)!, to: TimeOfDay(parsing: to)!)])
    }

    /// What a test sets the wall clock forward by (an NTP sync).
    final class WallClockOffset: Sendable {
        let seconds = Mutex<TimeInterval>(0)
    }

    /// Events with the player's clock's time when the player posted them.
    final class TimedRecorder: @unchecked Sendable {
        let clock: PlaybackClock
        let recorder = EventRecorder()
        private let times = Mutex<[(PlayerEvent, MediaTime)]>([])

        init(clock: PlaybackClock) {
            self.clock = clock
        }

        func record(_ event: PlayerEvent) {
            times.withLock { $0.append((event, clock.now())) }
            recorder.record(event)
        }

        var timed: [(event: PlayerEvent, at: MediaTime)] { times.withLock { $0.map { ($0.0, $0.1) } } }

        /// When each item started (its first frame on screen), by URL, in order.
        var starts: [(url: String, at: MediaTime)] {
            timed.compactMap { if case .itemStarted(_, let url, _, _) = $0.event { (url, $0.at) } else { nil } }
        }

        /// The commands the timetable sent, in order.
        var scheduleCommands: [ControlAction] {
            timed.compactMap { if case .command(let action, .schedule) = $0.event { action } else { nil } }
        }
    }

    /// A player whose wall clock starts at `start` and follows `clock` (moved on by `jump`). The
    /// virtual clock jumps to the timetable's next change whenever the player waits, so tests that
    /// act while the player waits take the real one.
    static func play(_ dayparts: [(Daypart, [String])], power: DisplayPowerSchedule = .alwaysOn, start: Date,
                     jump: WallClockOffset? = nil, output: QueuePlayerDisplayPowerTests.PoweredOutput? = nil,
                     clock: PlaybackClock = VirtualClock(), settings: PlayerSettings = PlayerSettings())
        -> (QueuePlayer, TimedRecorder) {
        let timetable = Timetable(clock: utc, dayparts: dayparts.map(\.0), displayPower: power)
        let playlists = ScheduledPlaylists(timetable: timetable, playlists: dayparts.map {
            ScheduledPlaylists.Playlist(items: $0.1.map { QueueItem(url: $0) })
        })
        let schedule = PlaylistSchedule(playlists: playlists, wallClock: {
            start.addingTimeInterval(clock.now().seconds + (jump?.seconds.withLock { $0 } ?? 0))
        })
        let recorder = TimedRecorder(clock: clock)
        let player = QueuePlayer(items: [], settings: settings, opener: media,
                                 video: output ?? QueuePlayerDisplayPowerTests.PoweredOutput(), schedule: schedule,
                                 clock: clock, events: { recorder.record($0) })
        return (player, recorder)
    }

    static func stop(_ player: QueuePlayer) {
        player.shutDown()
        _ = player.waitUntilFinished(graceAfterShutDown: 10)
    }

    @Test func aNewDaypartWaitsForTheItemOnScreenToEnd() {
        // Breakfast until 11:00, lunch from then; the player starts at 10:59:55, so breakfast's
        // second loop (4 s to 8 s) is on screen at the change (5 s) and plays to its end.
        let (player, recorder) = Self.play([
            (Daypart(name: "breakfast", schedule: Self.window("06:00", "11:00"), itemSchedules: [nil]), ["breakfast"]),
            (Daypart(name: "lunch", schedule: Self.window("11:00", "15:00"), itemSchedules: [nil]), ["lunch"]),
        ], start: Self.at("10:59:55"))
        player.start()
        #expect(recorder.recorder.wait { events in events.contains { if case .itemStarted(_, "lunch", _, _) = $0 { true } else { false } } })
        Self.stop(player)

        let starts = recorder.starts
        #expect(Array(starts.map { $0.url }.prefix(3)) == ["breakfast", "breakfast", "lunch"])
        #expect(starts.count >= 3 && starts[2].at == MediaTime(seconds: 8), "\(starts)")
        let change = recorder.timed.first { if case .daypartChanged = $0.event { true } else { false } }
        #expect(change?.event == .daypartChanged(daypart: "lunch", itemCount: 1, immediately: false))
        // Said when the window opened (within the 20 ms a sleeping present thread wakes in), not at the boundary.
        #expect(change.map { $0.at >= MediaTime(seconds: 5) && $0.at <= MediaTime(5020, per: 1000) } == true, "\(String(describing: change?.at))")
    }

    /// The change comes within the last frame of breakfast's second loop (7.99 s; its last frame
    /// went up at 7.96 s and the next loop, handed over to, waits for 8 s): lunch takes the 8 s
    /// slot, not 12 s after one more breakfast nobody asked for.
    @Test func aChangeWithinTheLastFrameBeforeAnItemBoundaryTakesThatBoundary() {
        let (player, recorder) = Self.play([
            (Daypart(name: "breakfast", schedule: Self.window("06:00", "11:00"), itemSchedules: [nil]), ["breakfast"]),
            (Daypart(name: "lunch", schedule: Self.window("11:00", "15:00"), itemSchedules: [nil]), ["lunch"]),
        ], start: Self.at("10:59:52").addingTimeInterval(0.01))
        player.start()
        #expect(recorder.recorder.wait { events in events.contains { if case .itemStarted(_, "lunch", _, _) = $0 { true } else { false } } })
        Self.stop(player)

        let starts = recorder.starts
        #expect(Array(starts.map { $0.url }.prefix(3)) == ["breakfast", "breakfast", "lunch"], "\(starts)")
        #expect(starts.count >= 3 && starts[2].at >= MediaTime(seconds: 8) && starts[2].at <= MediaTime(8040, per: 1000), "\(starts)")
    }

    @Test func anInterruptingDaypartCutsTheItemShort() {
        let (player, recorder) = Self.play([
            (Daypart(name: "breakfast", schedule: Self.window("06:00", "11:00"), itemSchedules: [nil]), ["breakfast"]),
            (Daypart(name: "lunch", schedule: Self.window("11:00", "15:00"), interrupt: true, itemSchedules: [nil]), ["lunch"]),
        ], start: Self.at("10:59:55"))
        player.start()
        #expect(recorder.recorder.wait { events in events.contains { if case .itemStarted(_, "lunch", _, _) = $0 { true } else { false } } })
        Self.stop(player)

        let starts = recorder.starts
        #expect(Array(starts.map { $0.url }.prefix(3)) == ["breakfast", "breakfast", "lunch"])
        // Lunch is up within a frame of 11:00:00 (5 s in), not at breakfast's end (8 s).
        #expect(starts.count >= 3 && starts[2].at >= MediaTime(seconds: 5) && starts[2].at <= MediaTime(5080, per: 1000), "\(starts)")
        #expect(recorder.timed.contains { $0.event == .itemEnded(index: 0, url: "breakfast", reason: .userExited, message: nil) })
        #expect(recorder.timed.contains { $0.event == .daypartChanged(daypart: "lunch", itemCount: 1, immediately: true) })
    }

    @Test func anItemJoinsThePlaylistWhenItsWindowOpens() {
        // Soup is on the lunch menu from 11:00:06: from then on it follows lunch's item.
        let (player, recorder) = Self.play([
            (Daypart(name: "lunch", itemSchedules: [nil, Self.window("11:00:06", "15:00")]), ["lunch", "soup"]),
        ], start: Self.at("11:00:00"))
        player.start()
        #expect(recorder.recorder.wait { events in events.contains { if case .itemStarted(_, "soup", _, _) = $0 { true } else { false } } })
        Self.stop(player)

        #expect(Array(recorder.starts.map { $0.url }.prefix(3)) == ["lunch", "lunch", "soup"], "\(recorder.starts)")
        #expect(recorder.starts.count >= 3 && recorder.starts[2].at == MediaTime(seconds: 8))
        #expect(recorder.timed.contains { $0.event == .daypartChanged(daypart: "lunch", itemCount: 2, immediately: false) })
    }

    @Test func nothingScheduledWaitsForTheFirstWindow() {
        // No default: before 11:00 nothing plays; the queue starts when lunch's window opens.
        let (player, recorder) = Self.play([
            (Daypart(name: "lunch", schedule: Self.window("11:00", "15:00"), itemSchedules: [nil]), ["lunch"]),
        ], start: Self.at("10:59:58"))
        player.start()
        #expect(recorder.recorder.wait { events in events.contains { if case .itemStarted(_, "lunch", _, _) = $0 { true } else { false } } })
        Self.stop(player)

        #expect(recorder.starts.first?.url == "lunch")
        #expect(recorder.starts.first.map { $0.at >= MediaTime(seconds: 2) && $0.at <= MediaTime(2080, per: 1000) } == true,
                "\(recorder.starts)")
    }

    @Test func theDisplayGoesOffAndOnWithItsWindowsAsCommandsFromTheSchedule() {
        // Off from 11:00:02 to 11:00:05: the clip pauses, the switch is told, and it goes on after.
        let output = QueuePlayerDisplayPowerTests.PoweredOutput()
        let (player, recorder) = Self.play([
            (Daypart(name: "default", itemSchedules: [nil]), ["welcome"]),
        ], power: DisplayPowerSchedule(offWindows: Self.window("11:00:02", "11:00:05")), start: Self.at("11:00:00"), output: output)
        player.start()
        #expect(recorder.recorder.wait { $0.contains(.displayPowerChanged(on: true)) })
        Self.stop(player)

        #expect(recorder.scheduleCommands == [.command(.displayOff), .command(.displayOn)])
        #expect(output.calls.withLock { $0 } == [false, true])
        let off = recorder.timed.first { $0.event == .displayPowerChanged(on: false) }?.at
        let on = recorder.timed.first { $0.event == .displayPowerChanged(on: true) }?.at
        #expect(off.map { $0 >= MediaTime(seconds: 2) && $0 <= MediaTime(2040, per: 1000) } == true, "\(String(describing: off))")
        #expect(on.map { $0 >= MediaTime(seconds: 5) && $0 <= MediaTime(5040, per: 1000) } == true, "\(String(describing: on))")
        // No frame is shown while the display is off.
        let dark = recorder.timed.filter {
            guard case .frame(_, _, _, false, _) = $0.event, let off, let on else { return false }
            return $0.at > off && $0.at < on
        }
        #expect(dark.isEmpty, "\(dark.count) frames shown while off")
    }

    @Test func aDisplayOnCommandHoldsUntilTheTimetableNextChanges() {
        let output = QueuePlayerDisplayPowerTests.PoweredOutput()
        let (player, recorder) = Self.play([
            (Daypart(name: "default", itemSchedules: [nil]), ["welcome"]),
        ], power: DisplayPowerSchedule(offWindows: Self.window("22:00", "07:00")), start: Self.at("23:00:00"), output: output,
           clock: MonotonicClock())
        player.start()
        // Night: off at start, from the schedule.
        #expect(recorder.recorder.wait { $0.contains(.displayPowerChanged(on: false)) })
        player.send(.command(.displayOn), from: .application)
        #expect(recorder.recorder.wait { $0.contains(.displayPowerChanged(on: true)) })
        Thread.sleep(forTimeInterval: 0.3)
        Self.stop(player)
        // The operator's on holds: the schedule does not turn it off again within the same window.
        #expect(recorder.scheduleCommands == [.command(.displayOff)])
        #expect(output.calls.withLock { $0 } == [false, true])
    }

    @Test func wallClockJumpsForwardAndBackAreFollowed() {
        // A device without an RTC boots in 1970 (night: screen off, nothing scheduled) and NTP
        // sets the clock to a Thursday lunchtime: the timetable is worked out again from then.
        let output = QueuePlayerDisplayPowerTests.PoweredOutput()
        let jump = WallClockOffset()
        let start = Date(timeIntervalSince1970: 0)
        let (player, recorder) = Self.play([
            (Daypart(name: "lunch", schedule: Self.window("11:00", "15:00"), itemSchedules: [nil]), ["lunch"]),
        ], power: DisplayPowerSchedule(offWindows: Self.window("22:00", "07:00")), start: start, jump: jump, output: output,
           clock: MonotonicClock())
        player.start()
        #expect(recorder.recorder.wait { $0.contains(.displayPowerChanged(on: false)) })
        #expect(!recorder.recorder.events.contains { if case .itemStarted = $0 { true } else { false } })
        jump.seconds.withLock { $0 = Self.at("12:00:00").timeIntervalSince(start) }
        player.wallClockChanged()
        #expect(recorder.recorder.wait { events in events.contains { if case .itemStarted(_, "lunch", _, _) = $0 { true } else { false } } })
        // Set back to 1970 (a bad NTP answer): nothing in the agenda is due for 56 years, so only
        // hearing of the jump turns the screen off again.
        jump.seconds.withLock { $0 = 0 }
        player.wallClockChanged()
        #expect(recorder.recorder.wait { $0.filter { $0 == .displayPowerChanged(on: false) }.count == 2 })
        Self.stop(player)

        #expect(recorder.scheduleCommands == [.command(.displayOff), .command(.displayOn), .command(.displayOff)])
        #expect(output.calls.withLock { $0 } == [false, true, false])
        #expect(recorder.timed.contains { $0.event == .daypartChanged(daypart: "lunch", itemCount: 1, immediately: true) })
        #expect(recorder.timed.contains { $0.event == .daypartChanged(daypart: nil, itemCount: 0, immediately: true) })
    }

    /// A screen left running follows its timetable for as long as it runs: the agenda looks six
    /// changes ahead (three days of one daily window), and the player asks for the next agenda
    /// before it runs out. Thirty simulated days of a two-second lunch window each day, on the
    /// virtual clock (the player jumps from one window to the next while nothing is scheduled).
    @Test func aTimetableIsFollowedForAMonthFarPastTheAgendasLookAhead() {
        let (player, recorder) = Self.play([
            (Daypart(name: "lunch", schedule: Self.window("12:00:00", "12:00:02"), interrupt: true, itemSchedules: [nil]), ["lunch"]),
        ], start: Self.at("11:59:59"))
        player.start()
        let days = 30
        let lunches = { (events: [PlayerEvent]) in
            events.filter { $0 == .daypartChanged(daypart: "lunch", itemCount: 1, immediately: true) }.count
        }
        let started = { (events: [PlayerEvent]) in
            events.filter { if case .itemStarted(_, "lunch", _, _) = $0 { true } else { false } }.count
        }
        // The 30th window's item on screen, not only its change said (the first frame comes after).
        #expect(recorder.recorder.wait(seconds: 60) { lunches($0) >= days && started($0) >= days })
        Self.stop(player)

        // Each day the lunch window opened at 12:00:00 on the wall clock (1 s after the start, then
        // a day apart), and its item started then.
        #expect(lunches(recorder.recorder.events) >= days, "the timetable was followed for \(lunches(recorder.recorder.events)) days")
        let starts = recorder.starts.filter { $0.url == "lunch" }
        #expect(starts.count >= days, "\(starts.count) lunches started")
        for (day, start) in starts.prefix(days).enumerated() {
            let due = MediaTime(seconds: 1 + Int64(day) * 86_400)
            #expect(start.at >= due && start.at <= due + MediaTime(1, per: 10), "day \(day + 1): lunch started at \(start.at.seconds) s, due at \(due.seconds) s")
        }
    }

    @Test func aReloadedTimetableReplacesTheOneFollowed() {
        // Playing the default loop at 11:00; the reloaded config has lunch now and the screen off
        // from 11:00:05 (the reloader works the agenda out off the present thread, as here).
        let output = QueuePlayerDisplayPowerTests.PoweredOutput()
        let clock = VirtualClock()
        let start = Self.at("11:00:00")
        let wallClock: @Sendable () -> Date = { start.addingTimeInterval(clock.now().seconds) }
        let (player, recorder) = Self.play([(Daypart(name: "default", itemSchedules: [nil]), ["welcome"])],
                                           start: start, output: output, clock: clock)
        player.start()
        #expect(recorder.recorder.wait { $0.contains { if case .itemStarted = $0 { true } else { false } } })
        let timetable = Timetable(clock: Self.utc, dayparts: [
            Daypart(name: "lunch", schedule: Self.window("11:00", "15:00"), itemSchedules: [nil]),
        ], displayPower: DisplayPowerSchedule(offWindows: Self.window("11:00:05", "12:00")))
        let schedule = PlaylistSchedule(playlists: ScheduledPlaylists(timetable: timetable, playlists: [.init(items: [QueueItem(url: "lunch")])]),
                                        wallClock: wallClock)
        let replacement = TimetableReplacement(schedule: schedule)
        player.replaceQueue(QueueReplacement(items: [QueueItem(url: "lunch")], settings: PlayerSettings(), timetable: replacement))
        #expect(recorder.recorder.wait { $0.contains(.displayPowerChanged(on: false)) })
        Self.stop(player)

        #expect(Array(recorder.starts.map { $0.url }.prefix(2)) == ["welcome", "lunch"], "\(recorder.starts)")
        // (Paused while off, the virtual clock may already have jumped on to 12:00 and back on.)
        #expect(recorder.scheduleCommands.first == .command(.displayOff))
        let off = recorder.timed.first { $0.event == .displayPowerChanged(on: false) }?.at
        #expect(off.map { $0 >= MediaTime(seconds: 5) && $0 <= MediaTime(5040, per: 1000) } == true, "\(String(describing: off))")
    }
}
