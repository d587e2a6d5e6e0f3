import MarqueeCore

extension DisplayConfiguration {
    /// Which display mode to set: the screen's preferred one, or a size with an optional refresh
    /// rate, written `preferred`, `1920x1080` or `1920x1080@59.94`.
    public enum Mode: Sendable, Hashable, CustomStringConvertible {
        case preferred
        /// `refreshRate` in Hz; nil takes the highest rate offered at that size. Real modes run at
        /// rates like 59.940 Hz, so match it to the nearest offered rate rather than exactly.
        case size(Size, refreshRate: Double?)

        public init?(parsing text: String) {
            if text.lowercased() == "preferred" {
                self = .preferred
                return
            }
            let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
            guard let size = Size(parsing: parts[0]) else { return nil }
            guard parts.count == 2 else {
                self = .size(size, refreshRate: nil)
                return
            }
            let rateText = parts[1]
            guard !rateText.isEmpty, rateText.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                  let rate = Double(rateText), rate > 0, rate <= 1000 else { return nil }
            self = .size(size, refreshRate: rate)
        }

        public var description: String {
            switch self {
            case .preferred: "preferred"
            case .size(let size, nil): "\(size)"
            case .size(let size, let rate?):
                rate == rate.rounded() ? "\(size)@\(Int(rate))" : "\(size)@\(rate)"
            }
        }
    }
}

extension DisplayConfiguration.Mode: TextCodable {
    public static let textKind = "mode"
}
