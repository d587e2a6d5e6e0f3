import Yams

extension ConfigurationDecoder {
    static let displayPowerKeys = ["windows", "offWhenIdle"]

    /// `display.power`: `{offWhenIdle: true, windows: [{off: "22:00", on: "07:00", days: mon-fri}]}`,
    /// or just the list of windows.
    mutating func decodeDisplayPower(_ node: Node) -> DisplayPowerConfiguration {
        var power = DisplayPowerConfiguration()
        if case .sequence = node {
            power.offWindows = decodeSchedule(node, edges: .power)?.windows ?? []
            return power
        }
        guard let fields = fields(of: node, in: "display.power", allowed: Self.displayPowerKeys) else { return power }
        if let node = fields["offWhenIdle"]?.value, let offWhenIdle = bool(node) {
            power.offWhenIdle = offWhenIdle
        }
        if let node = fields["windows"]?.value {
            power.offWindows = decodeSchedule(node, edges: .power)?.windows ?? []
        }
        return power
    }
}
