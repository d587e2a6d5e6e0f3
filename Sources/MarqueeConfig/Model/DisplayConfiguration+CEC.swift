import MarqueeCore

extension DisplayConfiguration {
    /// `display.cec`: which HDMI-CEC adapter turns the TV to standby and back with displayOff and
    /// displayOn: `auto` (the adapter bound to the DRM connector the picture is on), `off`, or a
    /// device path such as `/dev/cec0` (needed where the driver does not report its connector).
    public enum CEC: Sendable, Hashable, CustomStringConvertible {
        case auto
        case off
        case device(path: String)

        public static let spellings = ["auto", "off", "a device path such as /dev/cec0"]

        /// `auto` and `off` in any letter case; a path must be absolute.
        public init?(parsing text: String) {
            switch text.lowercased() {
            case "auto": self = .auto
            case "off": self = .off
            default:
                guard text.hasPrefix("/"), text.count > 1 else { return nil }
                self = .device(path: text)
            }
        }

        public var description: String {
            switch self {
            case .auto: "auto"
            case .off: "off"
            case .device(let path): path
            }
        }
    }
}

extension DisplayConfiguration.CEC: TextCodable {
    public static let textKind = "cec setting"
}
