/// An opaque colour, 8 bits a channel.
public struct RGBColor: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public static let black = RGBColor(red: 0, green: 0, blue: 0)

    /// Exactly `#` and six hex digits, either case: how config writes a colour.
    public init?(parsing text: String) {
        guard text.count == 7, text.first == "#" else { return nil }
        let digits = text.dropFirst()
        guard digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else { return nil }
        self.init(xrgb8888: value)
    }

    /// As stored in an XRGB8888 word: 0x00RRGGBB.
    public var xrgb8888: UInt32 { UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue) }

    public init(xrgb8888 value: UInt32) {
        self.init(red: UInt8(truncatingIfNeeded: value >> 16), green: UInt8(truncatingIfNeeded: value >> 8),
                  blue: UInt8(truncatingIfNeeded: value))
    }

    /// `#RRGGBB`.
    public var description: String {
        let hex = String(xrgb8888 | 0x1000000, radix: 16, uppercase: true).dropFirst()
        return "#\(hex)"
    }

    /// The largest difference in any channel: decoded video is compared with a tolerance.
    public func distance(to other: RGBColor) -> Int {
        max(abs(Int(red) - Int(other.red)), abs(Int(green) - Int(other.green)), abs(Int(blue) - Int(other.blue)))
    }
}

extension RGBColor: TextCodable {
    public static let textKind = "colour"
}
