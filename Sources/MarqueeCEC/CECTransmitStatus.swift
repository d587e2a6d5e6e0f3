/// The kernel's `tx_status` bits for one transmit: OK, or why the message did not get through.
public struct CECTransmitStatus: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    // The values of CEC_TX_STATUS_* in linux/cec.h (a kernel ABI, fixed).
    public static let ok = CECTransmitStatus(rawValue: 1 << 0)
    public static let arbitrationLost = CECTransmitStatus(rawValue: 1 << 1)
    public static let nack = CECTransmitStatus(rawValue: 1 << 2)
    public static let lowDrive = CECTransmitStatus(rawValue: 1 << 3)
    public static let error = CECTransmitStatus(rawValue: 1 << 4)
    public static let maxRetries = CECTransmitStatus(rawValue: 1 << 5)
    public static let aborted = CECTransmitStatus(rawValue: 1 << 6)
    public static let timeout = CECTransmitStatus(rawValue: 1 << 7)

    public var succeeded: Bool { contains(.ok) }

    /// What went wrong, for `<Standby> to TV not acknowledged (NACK)`: the first reason that
    /// explains most (a NACK after the retries is still a NACK), or `sent` when it was sent.
    public var failure: String? {
        guard !succeeded else { return nil }
        if contains(.nack) { return "not acknowledged (NACK)" }
        if contains(.timeout) { return "timed out" }
        if contains(.aborted) { return "aborted (the adapter was unconfigured or removed)" }
        if contains(.arbitrationLost) { return "lost arbitration to another device" }
        if contains(.lowDrive) { return "failed: the bus was pulled low (low drive)" }
        if contains(.error) { return "failed (transmit error)" }
        if contains(.maxRetries) { return "failed after the maximum number of retries" }
        return "failed (tx_status 0x\(CECMessage.hex(rawValue)))"
    }

    /// `OK`, `NACK|MAX_RETRIES`: the flags, as the kernel names them.
    public var description: String {
        let names: [(CECTransmitStatus, String)] = [(.ok, "OK"), (.arbitrationLost, "ARB_LOST"), (.nack, "NACK"),
                                                    (.lowDrive, "LOW_DRIVE"), (.error, "ERROR"), (.maxRetries, "MAX_RETRIES"),
                                                    (.aborted, "ABORTED"), (.timeout, "TIMEOUT")]
        let set = names.filter { contains($0.0) }.map(\.1)
        return set.isEmpty ? "none" : set.joined(separator: "|")
    }
}
