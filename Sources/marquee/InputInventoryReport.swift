import Foundation
import MarqueeCore
import MarqueeEvdev
import MarqueeSession

/// `marquee probe` without media: the input devices, and which of their keys the key map uses, so
/// an operator can see why a remote does or does not drive the player.
enum InputInventoryReport {
    static func text(_ inventory: InputInventory, keyMap: KeyMap) -> String {
        guard inventory.directoryExists else { return "input: no input devices (\(inventory.directory) does not exist)" }
        guard !inventory.devices.isEmpty else { return "input: no event devices in \(inventory.directory)" }
        var lines: [String] = []
        for (path, result) in inventory.devices {
            switch result {
            case .failure(let error):
                lines.append("input \(path): cannot read: \(error.message)")
            case .success(let device):
                lines.append("input \(path)  \"\(device.name)\"  bus \(device.busName) (\(hex(device.bus)))  "
                             + "vendor \(hex(device.vendor))  product \(hex(device.product))")
                let keys = device.mappedKeyNames(in: keyMap)
                lines.append("  mapped keys \(keys.isEmpty ? "none" : keys.joined(separator: " "))")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// One object per node, sorted keys; an unreadable node carries `error` instead of its facts.
    static func jsonObject(_ inventory: InputInventory, keyMap: KeyMap) -> [[String: Any]] {
        inventory.devices.map { path, result in
            switch result {
            case .failure(let error):
                return ["path": path, "error": error.message]
            case .success(let device):
                return ["path": path, "name": device.name, "phys": device.physicalLocation,
                        "bus": Int(device.bus), "busName": device.busName,
                        "vendor": Int(device.vendor), "product": Int(device.product),
                        "mappedKeys": device.mappedKeyNames(in: keyMap)]
            }
        }
    }

    private static func hex(_ value: UInt16) -> String { String(format: "0x%04x", value) }
}
