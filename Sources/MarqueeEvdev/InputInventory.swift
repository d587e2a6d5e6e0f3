import Foundation
import MarqueeCore

/// `marquee probe`: every evdev node, opened read-only for a moment (no grab), so an operator can see
/// which keypads and remotes the player would read and which of their keys the key map uses.
public struct InputInventory: Sendable {
    public var directory: String
    /// False on machines without input devices at all (a CI build host).
    public var directoryExists: Bool
    /// In node order; a node that cannot be opened (permissions) carries the cause.
    public var devices: [(path: String, result: Result<InputDeviceInfo, SystemError>)]

    public static func scan(directory: String = "/dev/input") -> InputInventory {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            return InputInventory(directory: directory, directoryExists: false, devices: [])
        }
        let devices = EventNodeName.sortedEventNodes(names).map { name in
            let path = directory + "/" + name
            return (path, Result { () throws(SystemError) in try InputDevice(path: path).info })
        }
        return InputInventory(directory: directory, directoryExists: true, devices: devices)
    }
}
