import Foundation
import MarqueeConfig
import MarqueeCore
import MarqueeSession

/// The lines `marquee schedule` prints: a heading, then one line per change, each saying from
/// when (in the schedule's zone, with its offset, the way `systemd-analyze calendar` shows times)
/// whether the screen is on and what plays until the next line.
struct TimetableReport {
    let configuration: MarqueeConfiguration
    let timetable: Timetable

    /// `config.yaml: times in Europe/Berlin, from Sat 2026-03-28 00:00:00 +01:00 until Sat 2026-04-04 00:00:00 +02:00`.
    func heading(path: String, from start: Date, until end: Date) -> String {
        "\(path): times in \(configuration.timeZoneName(systemTimeZone: timetable.clock.timeZone)), from \(stamp(start)) until \(stamp(end))"
    }

    /// `Mon 2026-03-30 07:00:00 +02:00  display on   breakfast: menu.png, coffee.mp4`.
    func line(for change: ScheduleChange) -> String {
        let power = change.state.displayOn ? "display on " : "display off"
        return "\(stamp(change.start))  \(power)  \(playing(change.state))"
    }

    /// `breakfast: menu.png, coffee.mp4`; `breakfast: no item in its window`; `nothing plays`.
    func playing(_ state: ScheduleState) -> String {
        guard let index = state.daypart else { return "nothing plays" }
        let daypart = configuration.dayparts[index]
        guard !state.items.isEmpty else { return "\(daypart.name): no item in its window" }
        let names = state.items.map { Self.name(of: daypart.playlist.items[$0]) }
        return "\(daypart.name): \(names.joined(separator: ", "))"
    }

    /// `Sat 2026-03-28 07:00:00 +01:00`: the reading of the schedule's clock and its UTC offset then.
    func stamp(_ instant: Date) -> String {
        let reading = timetable.clock.reading(at: instant)
        return "\(reading.date.weekday.capitalized) \(reading) \(Self.offset(timetable.clock.offset(at: instant)))"
    }

    /// An item's title, else the last part of its path or URL.
    static func name(of item: PlaylistItemConfiguration) -> String {
        if let title = item.title { return title }
        let text = CredentialRedaction.redacted(item.location.description)
        return text.split(separator: "/").last.map(String.init) ?? text
    }

    /// `+01:00`, `-04:00`, `+05:45`.
    static func offset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        let hours = minutes / 60
        return "\(sign)\(hours < 10 ? "0" : "")\(hours):\(minutes % 60 < 10 ? "0" : "")\(minutes % 60)"
    }
}
