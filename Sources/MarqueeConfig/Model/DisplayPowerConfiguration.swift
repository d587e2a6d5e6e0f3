import MarqueeCore

/// `display.power`: when the screen is switched off. The player follows it (as `displayOff` and
/// `displayOn` from source `schedule`); `marquee schedule` shows it.
public struct DisplayPowerConfiguration: Sendable, Equatable {
    /// Each window runs from its `off` time to its `on` time (a window's `from` and `to`).
    public var offWindows: [ScheduleWindow]
    /// The screen is also off while nothing plays.
    public var offWhenIdle: Bool

    public init(offWindows: [ScheduleWindow] = [], offWhenIdle: Bool = false) {
        self.offWindows = offWindows
        self.offWhenIdle = offWhenIdle
    }

    public var schedule: DisplayPowerSchedule {
        DisplayPowerSchedule(offWindows: offWindows.isEmpty ? nil : Schedule(offWindows), offWhenIdle: offWhenIdle)
    }
}

// Encoded as written: `{offWhenIdle: true, windows: [{off: "22:00", on: "07:00", days: mon-fri}]}`.
extension DisplayPowerConfiguration: Codable {
    private enum CodingKeys: String, CodingKey {
        case offWhenIdle, windows
    }

    /// A window with `off`/`on` for `from`/`to`; its days and dates as any window's.
    private struct PowerWindow: Codable {
        var window: ScheduleWindow

        private enum CodingKeys: String, CodingKey {
            case off, on
        }

        init(_ window: ScheduleWindow) {
            self.window = window
        }

        func encode(to encoder: any Encoder) throws {
            var dayless = window
            dayless.from = .midnight
            dayless.to = .endOfDay
            try dayless.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(window.from, forKey: .off)
            try container.encode(window.to, forKey: .on)
        }

        init(from decoder: any Decoder) throws {
            window = try ScheduleWindow(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            window.from = try container.decode(TimeOfDay.self, forKey: .off)
            window.to = try container.decode(TimeOfDay.self, forKey: .on)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(offWhenIdle, forKey: .offWhenIdle)
        try container.encode(offWindows.map(PowerWindow.init), forKey: .windows)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        offWhenIdle = try container.decodeIfPresent(Bool.self, forKey: .offWhenIdle) ?? false
        offWindows = try container.decodeIfPresent([PowerWindow].self, forKey: .windows)?.map(\.window) ?? []
    }
}
