extension DisplayConfiguration {
    /// An opaque sRGB colour, written `#RRGGBB`.
    public struct Color: Sendable, Hashable, CustomStringConvertible {
        public var red: UInt8
        public var green: UInt8
        public var blue: UInt8

        public static let black = Color(red: 0, green: 0, blue: 0)

        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// Exactly `#` and six hex digits, either case.
        public init?(parsing text: String) {
            guard text.count == 7, text.first == "#" else { return nil }
            let digits = text.dropFirst()
            guard digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else { return nil }
            self.init(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
        }

        /// `0xRRGGBB`, the layout of an XRGB8888 pixel.
        public var rgb: UInt32 { UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue) }

        public var description: String {
            let hex = String(rgb | 0x100_0000, radix: 16, uppercase: true).dropFirst()
            return "#\(hex)"
        }
    }
}

extension DisplayConfiguration.Color: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let color = Self(parsing: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "bad colour '\(text)'")
        }
        self = color
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
