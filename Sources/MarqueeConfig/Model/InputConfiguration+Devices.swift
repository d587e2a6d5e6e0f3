extension InputConfiguration {
    /// Which input devices to read: written `auto`, `none`, or a list.
    public enum Devices: Sendable, Hashable {
        /// Every device (present and hotplugged) that has at least one key the key map binds.
        case auto
        /// No input at all: a screen nobody touches.
        case none
        /// `/dev/input/...` paths, or device names as the kernel reports them (matched exactly).
        case list([String])
    }
}

extension InputConfiguration.Devices: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let word = try? container.decode(String.self) {
            switch word {
            case "auto": self = .auto
            case "none": self = .none
            default: self = .list([word])
            }
        } else {
            self = .list(try container.decode([String].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .auto: try container.encode("auto")
        case .none: try container.encode("none")
        case .list(let devices): try container.encode(devices)
        }
    }
}
