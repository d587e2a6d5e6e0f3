import MarqueeCore

extension DisplayConfiguration {
    /// Which video output to use, spelled as in `marquee play --output`: `auto`, `drm[:PATH]`,
    /// `headless[:WxH]`.
    public enum Output: Sendable, Hashable, CustomStringConvertible {
        /// DRM when a card with a connected screen exists, headless otherwise.
        case auto
        /// KMS/DRM; nil picks the first card that has a connected connector.
        case drm(device: String?)
        /// No screen: frames are rendered into memory exactly as a screen would show them (tests, soak
        /// runs, machines without a display); nil means 1280x720.
        case headless(size: Size?)

        public static let spellings = ["auto", "drm", "drm:PATH", "headless", "headless:WxH"]

        public init?(parsing text: String) {
            let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let kind = parts[0].lowercased()
            let argument = parts.count > 1 ? String(parts[1]) : nil
            switch (kind, argument) {
            case ("auto", nil): self = .auto
            case ("drm", nil): self = .drm(device: nil)
            case ("drm", let path?) where !path.isEmpty: self = .drm(device: path)
            case ("headless", nil): self = .headless(size: nil)
            case ("headless", let size?):
                guard let size = Size(parsing: size) else { return nil }
                self = .headless(size: size)
            default: return nil
            }
        }

        public var description: String {
            switch self {
            case .auto: "auto"
            case .drm(nil): "drm"
            case .drm(let device?): "drm:\(device)"
            case .headless(nil): "headless"
            case .headless(let size?): "headless:\(size)"
            }
        }
    }
}

extension DisplayConfiguration.Output: TextCodable {
    public static let textKind = "output"
}
