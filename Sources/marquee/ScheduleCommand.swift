import ArgumentParser
import Foundation
import MarqueeConfig
import MarqueeCore
import MarqueeSession

/// `marquee schedule CONFIG [--from T] [--to T]`: the operator's preview of a config's timetable,
/// one line per change of what plays or of the display's power, in the schedule's time zone.
/// Config problems are printed as `marquee check` prints them (on stderr here, so the timetable
/// alone is on stdout); errors end it with exit status 1.
struct ScheduleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule",
        abstract: "Print a config's timetable: when each playlist and item plays, and when the display is on or off."
    )

    @Argument(help: "The config file (.yaml, .yml, .json).")
    var config: String

    @Option(help: "Where the timetable starts: an ISO 8601 date or date and time, e.g. 2026-03-28, 2026-03-28T07:00 (in the schedule's zone) or 2026-03-28T07:00+01:00 (default: now).")
    var from: String?

    @Option(help: "Where it ends, the same way (default: 7 days after --from).")
    var to: String?

    static let defaultSpan: TimeInterval = 7 * 86_400

    func run() throws {
        let result = ConfigurationLoader.load(path: config, checkingMediaFiles: false)
        for diagnostic in result.diagnostics {
            Console.writeError(diagnostic.description)
        }
        guard let configuration = result.configuration, !result.hasErrors else { throw ExitCode(1) }
        let timetable = configuration.timetable()
        let start = try from.map { try Self.instant($0, option: "--from", on: timetable.clock) } ?? Date()
        let end = try to.map { try Self.instant($0, option: "--to", on: timetable.clock) } ?? start.addingTimeInterval(Self.defaultSpan)
        guard start < end else {
            throw CommandValues.fail("--to must be after --from")
        }
        let report = TimetableReport(configuration: configuration, timetable: timetable)
        print(report.heading(path: config, from: start, until: end))
        for change in timetable.changes(from: start, to: end) {
            print(report.line(for: change))
        }
    }

    private static func instant(_ text: String, option: String, on clock: WallClock) throws -> Date {
        guard let instant = clock.instant(parsingISO8601: text) else {
            throw CommandValues.fail("\(option): bad time '\(text)' (expected an ISO 8601 date or date and time, "
                + "e.g. 2026-03-28, 2026-03-28T07:00 or 2026-03-28T07:00:00+01:00)")
        }
        return instant
    }
}
