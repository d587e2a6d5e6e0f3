import Foundation
import Logging
import MarqueeConfig
import MarqueeCore
import MarqueeEvdev
import MarqueeSession

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

    /// nil for `none`: nothing is opened and no source is added to the loop.
    static func make(_ input: InputConfiguration, logger: Logger, events: ControlPlaneLoop,
                     deliver: @escaping @Sendable (ControlAction, CommandSource) -> Void,
                     entryChanged: @escaping @Sendable (String?) -> Void = { _ in }) -> InputMonitor? {
        let keyMap = input.keyMap
        let selection: InputDeviceSelection
        switch input.devices {
        case .none: return nil
        case .auto: selection = .auto(boundCodes: keyMap.boundCodes)
        case .list(let entries): selection = .named(entries)
        }
        if input.lockdown { logger.info("\(lockdownLine())") }
        return InputMonitor(options: .init(selection: selection, keyMap: keyMap, grab: input.grab, lockdown: input.lockdown), events: events, deliver: deliver,
                            log: { level, line in
                                switch level {
                                case .info: logger.info("\(line)")
                                case .warning: logger.warning("\(line)")
                                }
                            }, entryChanged: entryChanged)
    }

    /// What lockdown does and what is left to the system, said once at start.
    static func lockdownLine(sysrq: String? = try? String(contentsOfFile: "/proc/sys/kernel/sysrq", encoding: .utf8)) -> String {
        let value = sysrq?.trimmingCharacters(in: .whitespacesAndNewlines)
        let sysrqNote = value == "0" ? "SysRq is off (kernel.sysrq=0)"
            : "kernel.sysrq is \(value ?? "unknown"): SysRq still works from a keyboard not yet grabbed and from a serial console (sysctl kernel.sysrq=0 turns it off)"
        return "input: lockdown: every keyboard is grabbed, bound keys or not: VT switches (Ctrl+Alt+Fn), Ctrl+Alt+Del and SysRq from it reach nothing; "
            + sysrqNote + "; Ctrl+Alt+Del from elsewhere: systemctl mask ctrl-alt-del.target"
    }
}
