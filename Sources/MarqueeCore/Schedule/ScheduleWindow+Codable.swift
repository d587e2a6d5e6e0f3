// A window encodes as a config writes it (`{days: mon-fri, from: "07:00", to: "11:00"}`), leaving
// out what is at its default, so an encoded config reads back to the same windows.
extension ScheduleWindow: Codable {
    private enum CodingKeys: String, CodingKey {
        case days, from, to, dates, fromDate, untilDate
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if days != .everyDay { try container.encode(days, forKey: .days) }
        if from != .midnight { try container.encode(from, forKey: .from) }
        if to != .endOfDay { try container.encode(to, forKey: .to) }
        switch dates {
        case .always: break
        case .on(let list): try container.encode(list, forKey: .dates)
        case .between(let from, let until):
            try container.encodeIfPresent(from, forKey: .fromDate)
            try container.encodeIfPresent(until, forKey: .untilDate)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        days = try container.decodeIfPresent(WeekdaySet.self, forKey: .days) ?? .everyDay
        from = try container.decodeIfPresent(TimeOfDay.self, forKey: .from) ?? .midnight
        to = try container.decodeIfPresent(TimeOfDay.self, forKey: .to) ?? .endOfDay
        let list = try container.decodeIfPresent([CalendarDate].self, forKey: .dates)
        let fromDate = try container.decodeIfPresent(CalendarDate.self, forKey: .fromDate)
        let untilDate = try container.decodeIfPresent(CalendarDate.self, forKey: .untilDate)
        if let list {
            dates = .dates(list)
        } else if fromDate != nil || untilDate != nil {
            dates = .between(from: fromDate, until: untilDate)
        } else {
            dates = .always
        }
    }
}
