import MarqueeCore

/// What `display.output`, `display.connector`, `display.mode` and `display.rotation` ask of the DRM output.
public struct DRMOutputOptions: Sendable {
    /// `/dev/dri/cardN`; nil takes the first card with a connected connector.
    public var devicePath: String?
    /// A connector name such as `HDMI-A-1`, or `auto`.
    public var connector: String
    public var mode: DisplayModeRequest
    /// `display.rotation`: done by the primary plane when it offers that turn, else by the player.
    public var rotation: Rotation
    /// False forces the legacy SetCrtc/PageFlip calls even where the driver offers atomic.
    public var allowsAtomic: Bool

    public init(devicePath: String? = nil, connector: String = ConnectorChoice.automatic, mode: DisplayModeRequest = .preferred,
                rotation: Rotation = .none, allowsAtomic: Bool = true) {
        self.devicePath = devicePath
        self.connector = connector
        self.mode = mode
        self.rotation = rotation
        self.allowsAtomic = allowsAtomic
    }
}
