// A schedule encodes as its list of windows (a config may also write a single window alone).
extension Schedule: Codable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(windows)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let windows = try? container.decode([ScheduleWindow].self) {
            self.init(windows)
        } else {
            self.init([try container.decode(ScheduleWindow.self)])
        }
    }
}
