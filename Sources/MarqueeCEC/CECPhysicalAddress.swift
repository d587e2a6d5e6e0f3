/// Where a device sits in the HDMI tree, four nibbles written `1.0.0.0` (the TV is `0.0.0.0`).
/// `f.f.f.f` means none: no sink connected, or its EDID not read yet.
public struct CECPhysicalAddress: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let invalid = CECPhysicalAddress(rawValue: 0xFFFF)

    public var isValid: Bool { self != .invalid }

    /// `1.0.0.0`; `f.f.f.f` when invalid.
    public var description: String {
        [12, 8, 4, 0].map { String((rawValue >> $0) & 0xF, radix: 16) }.joined(separator: ".")
    }

    /// The two bytes of an operand, high byte first (`<Active Source>`'s payload).
    public var bytes: [UInt8] { [UInt8(rawValue >> 8), UInt8(rawValue & 0xFF)] }

    /// `1.0.0.0` or `1.2.0.0` (hex digits); nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt16 = 0
        for part in parts {
            guard part.count == 1, let digit = UInt16(part, radix: 16) else { return nil }
            value = value << 4 | digit
        }
        rawValue = value
    }
}
