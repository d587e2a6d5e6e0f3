import Foundation

/// `device:`: who this player is to the fleet: the play ledger's records and reports name it.
public struct DeviceConfiguration: Sendable, Equatable, Codable {
    /// `device.id`; nil: the machine id (`/etc/machine-id`), else the host name.
    public var id: String?

    public init(id: String? = nil) {
        self.id = id
    }

    /// The id in use: the configured one, else the machine's.
    public func resolvedID(machineIDPath: String = "/etc/machine-id") -> String {
        if let id { return id }
        if let text = try? String(contentsOfFile: machineIDPath, encoding: .utf8) {
            let machine = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !machine.isEmpty { return machine }
        }
        return ProcessInfo.processInfo.hostName
    }
}
