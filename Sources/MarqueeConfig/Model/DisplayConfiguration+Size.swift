extension DisplayConfiguration {
    /// A width and height in pixels, written `1920x1080`.
    public struct Size: Sendable, Hashable, Codable, CustomStringConvertible {
        public var width: Int
        public var height: Int

        /// Larger than any scanout or framebuffer a KMS driver offers; catches typos like `19200x1080`.
        public static let maximumSide = 16_384

        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }

        /// `WIDTHxHEIGHT`, both sides 1 to `maximumSide`; `X` is accepted for `x`.
        public init?(parsing someText: some StringProtocol) {
            let text = Substring(someText)
            let sides = text.split(separator: "x", maxSplits: 1, omittingEmptySubsequences: false)
            let uppercaseSides = text.split(separator: "X", maxSplits: 1, omittingEmptySubsequences: false)
            let parts = sides.count == 2 ? sides : uppercaseSides
            guard parts.count == 2,
                  let width = Self.side(parts[0]), let height = Self.side(parts[1]) else { return nil }
            self.init(width: width, height: height)
        }

        private static func side(_ text: Substring) -> Int? {
            guard !text.isEmpty, text.count <= 5, text.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = Int(text), (1...maximumSide).contains(value) else { return nil }
            return value
        }

        public var description: String { "\(width)x\(height)" }
    }
}
