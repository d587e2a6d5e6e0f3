/// One CEC frame as it goes on the bus: a header byte (initiator << 4 | destination), an opcode and
/// its operands. Pure bytes: what the player sends is decided and tested without a device.
public struct CECMessage: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// At most 16 bytes: a header, an opcode and 14 operand bytes.
    public static let maximumLength = 16

    public init?(bytes: [UInt8]) {
        guard !bytes.isEmpty, bytes.count <= Self.maximumLength else { return nil }
        self.bytes = bytes
    }

    public init(from initiator: CECLogicalAddress, to destination: CECLogicalAddress, opcode: Opcode, operands: [UInt8] = []) {
        precondition(operands.count <= Self.maximumLength - 2, "a CEC message holds at most 14 operand bytes")
        bytes = [initiator.rawValue << 4 | destination.rawValue, opcode.rawValue] + operands
    }

    public var initiator: CECLogicalAddress { CECLogicalAddress(rawValue: bytes[0] >> 4)! }
    public var destination: CECLogicalAddress { CECLogicalAddress(rawValue: bytes[0] & 0xF)! }
    public var opcode: Opcode? { bytes.count > 1 ? Opcode(rawValue: bytes[1]) : nil }
    public var operands: [UInt8] { Array(bytes.dropFirst(2)) }

    /// The opcodes the player sends.
    public enum Opcode: UInt8, Sendable {
        case imageViewOn = 0x04
        case standby = 0x36
        case activeSource = 0x82

        /// As the CEC specification writes it: `<Standby>`.
        public var name: String {
            switch self {
            case .imageViewOn: "<Image View On>"
            case .standby: "<Standby>"
            case .activeSource: "<Active Source>"
            }
        }
    }

    /// `<Standby>` to the TV: it goes to standby (a TV that follows CEC; some need it enabled in their menu).
    public static func standby(from initiator: CECLogicalAddress) -> CECMessage {
        CECMessage(from: initiator, to: .tv, opcode: .standby)
    }

    /// `<Image View On>` to the TV: it wakes and shows its current input.
    public static func imageViewOn(from initiator: CECLogicalAddress) -> CECMessage {
        CECMessage(from: initiator, to: .tv, opcode: .imageViewOn)
    }

    /// `<Active Source>` to all, with our physical address: the TV switches to our input.
    public static func activeSource(from initiator: CECLogicalAddress, physicalAddress: CECPhysicalAddress) -> CECMessage {
        CECMessage(from: initiator, to: .broadcast, opcode: .activeSource, operands: physicalAddress.bytes)
    }

    /// `<Standby> to TV`, `<Active Source> to all`: what the log lines call it.
    public var summary: String {
        let name = opcode?.name ?? (bytes.count > 1 ? "<opcode 0x\(Self.hex(bytes[1]))>" : "<Polling>")
        return "\(name) to \(destination.destinationName)"
    }

    /// `4f:82:10:00`, as cec-ctl writes raw messages.
    public var description: String {
        bytes.map(Self.hex).joined(separator: ":")
    }

    /// Two lower-case hex digits.
    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }
}
