/// A day of the week, written as in cron and systemd calendars: `mon` … `sun` (or in full).
public enum Weekday: String, CaseIterable, Sendable, Hashable, Codable, Comparable {
    // ISO 8601 order: the week starts on Monday, so `mon-fri` is the working week.
    case mon, tue, wed, thu, fri, sat, sun

    /// `monday`, … for messages and for configs that spell days out.
    public var fullName: String {
        switch self {
        case .mon: "monday"
        case .tue: "tuesday"
        case .wed: "wednesday"
        case .thu: "thursday"
        case .fri: "friday"
        case .sat: "saturday"
        case .sun: "sunday"
        }
    }

    /// `Mon`, as timetables print it (the way `systemd-analyze calendar` does).
    public var capitalized: String {
        rawValue.prefix(1).uppercased() + rawValue.dropFirst()
    }

    /// `mon`, `Monday`, `MON`: the short or the full name in any letter case.
    public init?(name: String) {
        let lowered = name.lowercased()
        guard let day = Self.allCases.first(where: { $0.rawValue == lowered || $0.fullName == lowered }) else {
            return nil
        }
        self = day
    }

    /// 0 for Monday … 6 for Sunday.
    public var isoIndex: Int { Self.allCases.firstIndex(of: self)! }

    public init(isoIndex: Int) {
        self = Self.allCases[((isoIndex % 7) + 7) % 7]
    }

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool {
        lhs.isoIndex < rhs.isoIndex
    }
}
