import Foundation
import MarqueeCore
import Yams

/// `schedule:` windows on playlists and items, the power windows of `display.power`, and the
/// top-level `schedule.timezone`.
extension ConfigurationDecoder {
    /// The names a window's two edges go by: `from`/`to` for what plays, `off`/`on` for the screen.
    struct WindowEdges: Equatable {
        let start: String
        let end: String
        let section: String

        static let playing = WindowEdges(start: "from", end: "to", section: "schedule window")
        static let power = WindowEdges(start: "off", end: "on", section: "power window")

        var keys: [String] { ["days", start, end, "dates", "fromDate", "untilDate"] }
    }

    static let scheduleSettingsKeys = ["timezone"]
    static let dayNames = Weekday.allCases.map(\.rawValue) + Weekday.allCases.map(\.fullName)

    mutating func decodeScheduleSettings(_ node: Node) -> ScheduleConfiguration {
        var settings = ScheduleConfiguration()
        guard let fields = fields(of: node, in: "schedule", allowed: Self.scheduleSettingsKeys) else { return settings }
        if let node = fields["timezone"]?.value, let name = string(node, expected: "an IANA time zone such as Europe/Berlin") {
            if TimeZone(identifier: name) != nil {
                settings.timeZoneIdentifier = name
            } else {
                var message = "unknown time zone '\(name)'"
                if let suggestion = Suggestion.closest(to: name, among: TimeZone.knownTimeZoneIdentifiers) {
                    message += "; did you mean '\(suggestion)'?"
                } else {
                    message += " (expected an IANA name such as Europe/Berlin or America/New_York)"
                }
                log.error(at: SourcePosition(of: node), message)
            }
        }
        return settings
    }

    /// One window (a mapping) or a list of them.
    mutating func decodeSchedule(_ node: Node, edges: WindowEdges = .playing) -> Schedule? {
        let windows: [ScheduleWindow]
        switch node {
        case .mapping:
            windows = decodeWindow(node, edges: edges).map { [$0] } ?? []
        case .sequence(let sequence):
            if sequence.isEmpty { log.error(at: SourcePosition(of: node), "expected at least one \(edges.section)") }
            windows = sequence.compactMap { decodeWindow($0, edges: edges) }
        default:
            log.error(at: SourcePosition(of: node),
                      "expected a \(edges.section) (e.g. {days: mon-fri, \(edges.start): \"07:00\", \(edges.end): \"11:00\"}) or a list of them, found \(describe(node))")
            return nil
        }
        return windows.isEmpty ? nil : Schedule(windows)
    }

    private mutating func decodeWindow(_ node: Node, edges: WindowEdges) -> ScheduleWindow? {
        guard let fields = fields(of: node, in: edges.section, allowed: edges.keys, allowsNothing: false) else { return nil }
        let errorsBefore = log.errorCount
        var window = ScheduleWindow()
        if let field = fields["days"], let days = decodeDays(field.value) { window.days = days }
        let start = fields[edges.start].flatMap { decodeTimeOfDay($0.value) }
        let end = fields[edges.end].flatMap { decodeTimeOfDay($0.value) }
        if edges == .power {
            for key in [edges.start, edges.end] where fields[key] == nil {
                log.error(at: SourcePosition(of: node), "power window is missing '\(key)' (the time the screen goes \(key))")
            }
        }
        if let start {
            if start.isEndOfDay {
                log.error(at: fields[edges.start]!.valuePosition, "a window cannot start at 24:00 (start at 00:00 of the next day)")
            } else {
                window.from = start
            }
        }
        if let end { window.to = end }
        // Only edges that were both read (or left at their defaults) can make an empty window.
        if log.errorCount == errorsBefore, window.from == window.to, let field = fields[edges.end] ?? fields[edges.start] {
            log.error(at: field.valuePosition,
                      "'\(edges.end)' is the same time as '\(edges.start)' (\(window.from)): the window would be empty"
                          + (edges == .playing ? "; leave both out for the whole day" : ""))
        }
        window.dates = decodeDateRule(fields)
        // Only a window with no other fault is checked as a whole, so one typo is one message.
        if log.errorCount == errorsBefore, !window.everStarts {
            log.error(at: SourcePosition(of: node), "this window never happens: none of its dates falls on \(window.days)")
        }
        return log.errorCount == errorsBefore ? window : nil
    }

    /// `days: mon-fri`, `days: [mon, wed]`, `days: [mon-wed, sat]`.
    private mutating func decodeDays(_ node: Node) -> WeekdaySet? {
        let parts: [Node]
        if case .sequence(let sequence) = node {
            guard !sequence.isEmpty else {
                log.error(at: SourcePosition(of: node), "expected at least one day")
                return nil
            }
            parts = Array(sequence)
        } else {
            parts = [node]
        }
        var days = WeekdaySet([])
        for part in parts {
            guard let text = string(part, expected: "days such as mon-fri or [sat, sun]") else { return nil }
            switch WeekdaySet.parse(text) {
            case .success(let set):
                days = days.union(set)
            case .failure(.unknownDay(let word)):
                var message = "unknown day '\(word)'"
                if let suggestion = Suggestion.closest(to: word, among: Self.dayNames) { message += "; did you mean '\(suggestion)'?" }
                log.error(at: SourcePosition(of: part), message + " (expected mon, tue, wed, thu, fri, sat or sun, or a range such as mon-fri)")
                return nil
            case .failure(.empty):
                log.error(at: SourcePosition(of: part), "expected days such as mon-fri or [sat, sun], found \(describe(part))")
                return nil
            }
        }
        return days
    }

    /// `07:00`, quoted or not: an unquoted `11:00` is a YAML 1.1 sexagesimal number, but its text is kept.
    private mutating func decodeTimeOfDay(_ node: Node) -> TimeOfDay? {
        guard let text = string(node, expected: "a time of day such as \"07:00\"") else { return nil }
        guard let time = TimeOfDay(parsing: text) else {
            log.error(at: SourcePosition(of: node), "bad time of day '\(text)' (expected HH:MM or HH:MM:SS, from 00:00 to 24:00)")
            return nil
        }
        return time
    }

    /// `dates:` (one date or a list), or `fromDate:`/`untilDate:` (a range, both ends included).
    private mutating func decodeDateRule(_ fields: [String: MappingField]) -> DateRule {
        if let field = fields["dates"] {
            if fields["fromDate"] != nil || fields["untilDate"] != nil {
                log.error(at: field.keyPosition, "give either 'dates' or 'fromDate'/'untilDate', not both")
                return .always
            }
            let nodes: [Node]
            if case .sequence(let sequence) = field.value { nodes = Array(sequence) } else { nodes = [field.value] }
            if nodes.isEmpty { log.error(at: field.valuePosition, "expected at least one date") }
            let dates = nodes.compactMap { decodeDate($0) }
            return dates.count == nodes.count ? .dates(dates) : .always
        }
        let from = fields["fromDate"].flatMap { decodeDate($0.value) }
        let until = fields["untilDate"].flatMap { decodeDate($0.value) }
        if let from, let until, until < from {
            log.error(at: fields["untilDate"]!.valuePosition, "untilDate (\(until)) is before fromDate (\(from))")
        }
        return from == nil && until == nil ? .always : .between(from: from, until: until)
    }

    /// `2026-12-24`, quoted or not (unquoted it is a YAML timestamp, whose text is kept).
    private mutating func decodeDate(_ node: Node) -> CalendarDate? {
        guard let text = string(node, expected: "a date such as 2026-12-24") else { return nil }
        switch CalendarDate.parse(text) {
        case .success(let date): return date
        case .failure(let error):
            log.error(at: SourcePosition(of: node), error.description)
            return nil
        }
    }
}
