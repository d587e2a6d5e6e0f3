/// One of the sixteen addresses on a CEC bus: 0 is the TV, 4, 8 and 11 are playback devices, 15 is
/// "unregistered" as an initiator and "all" (broadcast) as a destination.
public struct CECLogicalAddress: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt8

    public init?(rawValue: UInt8) {
        guard rawValue <= 15 else { return nil }
        self.rawValue = rawValue
    }

    private init(_ value: UInt8) { rawValue = value }

    public static let tv = CECLogicalAddress(0)
    public static let playbackDevice1 = CECLogicalAddress(4)
    /// As a destination: every device (a broadcast). As an initiator: a device with no address of its own.
    public static let broadcast = CECLogicalAddress(15)

    /// The names CEC 1.4/2.0 give each address, as `cec-ctl` prints them.
    static let names = ["TV", "Recording Device 1", "Recording Device 2", "Tuner 1", "Playback Device 1",
                        "Audio System", "Tuner 2", "Tuner 3", "Playback Device 2", "Recording Device 3",
                        "Tuner 4", "Playback Device 3", "Backup 1", "Backup 2", "Specific", "Unregistered"]

    /// `Playback Device 1`; 15 is `Unregistered` (an initiator's name for it).
    public var name: String { Self.names[Int(rawValue)] }

    /// What a message is sent to: `TV`, `all` for a broadcast, else the address's name.
    public var destinationName: String { self == .broadcast ? "all" : name }

    /// `Playback Device 1 (logical address 4)`.
    public var description: String { "\(name) (logical address \(rawValue))" }

    public static func < (lhs: CECLogicalAddress, rhs: CECLogicalAddress) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The addresses set in a `log_addr_mask` (bit N for address N), lowest first.
    public static func addresses(inMask mask: UInt16) -> [CECLogicalAddress] {
        (0..<16).compactMap { bit in mask & (1 << bit) != 0 ? CECLogicalAddress(UInt8(bit)) : nil }
    }
}
