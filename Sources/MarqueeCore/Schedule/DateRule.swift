/// Which calendar dates a window may start on, besides its days of the week.
public enum DateRule: Sendable, Hashable {
    /// Any date.
    case always
    /// Only these dates (`dates:`), kept sorted and without repeats.
    case on([CalendarDate])
    /// From one date through another, both inclusive (`fromDate:`/`untilDate:`); a missing end is open.
    case between(from: CalendarDate?, until: CalendarDate?)

    public static func dates(_ dates: some Sequence<CalendarDate>) -> DateRule {
        .on(Array(Set(dates)).sorted())
    }

    public func contains(_ date: CalendarDate) -> Bool {
        switch self {
        case .always: true
        case .on(let dates): dates.contains(date)
        case .between(let from, let until): from.map { date >= $0 } ?? true && until.map { date <= $0 } ?? true
        }
    }

    /// The first date allowed, nil when there is none before any other.
    public var earliest: CalendarDate? {
        switch self {
        case .always: nil
        case .on(let dates): dates.first
        case .between(let from, _): from
        }
    }

    /// The last date allowed, nil when the rule goes on for ever.
    public var latest: CalendarDate? {
        switch self {
        case .always: nil
        case .on(let dates): dates.last
        case .between(_, let until): until
        }
    }

    /// Whether the rule allows no date at all (`fromDate` after `untilDate`, an empty list).
    public var isEmpty: Bool {
        switch self {
        case .always: false
        case .on(let dates): dates.isEmpty
        case .between(let from, let until): from.flatMap { from in until.map { from > $0 } } ?? false
        }
    }
}
