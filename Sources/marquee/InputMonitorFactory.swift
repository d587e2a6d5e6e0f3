import Logging
import MarqueeConfig
import MarqueeCore
import MarqueeEvdev

/// Turns `input:` (or `--input`/`--grab`) into the evdev monitor that feeds the player's command path.
enum InputMonitorFactory {
    /// `--input` values: `auto`, `none`, or device paths and names (repeat the option for several).
    /// nil when the values mix `auto`/`none` with devices.
    static func devices(fromArguments values: [String]) -> InputConfiguration.Devices? {
        switch values {
        case ["auto"]: return .auto
        case ["none"]: return InputConfiguration.Devices.none
        default: return values.contains("auto") || values.contains("none") ? nil : .list(values)
        }
    }

    /// nil for `none`: nothing is opened and no thread runs.
    static func make(_ input: InputConfiguration, logger: Logger,
                     deliver: @escaping @Sendable (ControlAction, CommandSource) -> Void,
                     entryChanged: @escaping @Sendable (String?) -> Void = { _ in }) -> InputMonitor? {
        let keyMap = input.keyMap
        let selection: InputDeviceSelection
        switch input.devices {
        case .none: return nil
        case .auto: selection = .auto(boundCodes: keyMap.boundCodes)
        case .list(let entries): selection = .named(entries)
        }
        return InputMonitor(options: .init(selection: selection, keyMap: keyMap, grab: input.grab), deliver: deliver,
                            log: { level, line in
                                switch level {
                                case .info: logger.info("\(line)")
                                case .warning: logger.warning("\(line)")
                                }
                            }, entryChanged: entryChanged)
    }
}
