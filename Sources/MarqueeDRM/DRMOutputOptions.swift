import MarqueeCore

/// What `display.output`, `display.connector` and `display.mode` ask of the DRM output.
public struct DRMOutputOptions: Sendable {
    /// `/dev/dri/cardN`; nil takes the first card with a connected connector.
    public var devicePath: String?
    /// A connector name such as `HDMI-A-1`, or `auto`.
    public var connector: String
    public var mode: DisplayModeRequest

    public init(devicePath: String? = nil, connector: String = ConnectorChoice.automatic, mode: DisplayModeRequest = .preferred) {
        self.devicePath = devicePath
        self.connector = connector
        self.mode = mode
    }
}
