import MarqueeCore

/// Where and how pictures are shown.
public struct DisplayConfiguration: Sendable, Equatable, Codable {
    public var output: Output
    /// A DRM connector name such as `HDMI-A-1`, or `auto` for the first connected one.
    public var connector: String
    public var mode: Mode
    /// How the screen is mounted; pictures are turned the other way to appear upright.
    public var rotation: Rotation
    /// The default for items that do not set their own.
    public var scaling: ScalingMode
    /// What fills the letterbox bars and the gaps between items.
    public var background: RGBColor
    public var modesetting: Modesetting
    /// Stills with more pixels are refused before they are decoded: a picture's memory is its
    /// pixel count times four bytes, and one huge image must not take the device's memory.
    public var maxImagePixels: ImagePixelLimit
    /// When the screen is switched off (`display.power`).
    public var power: DisplayPowerConfiguration
    /// The TV's power over HDMI-CEC (`display.cec`).
    public var cec: CEC

    public static let automaticConnector = "auto"

    public init(output: Output = .auto,
                connector: String = DisplayConfiguration.automaticConnector,
                mode: Mode = .preferred,
                rotation: Rotation = .none,
                scaling: ScalingMode = .default,
                background: RGBColor = .black,
                modesetting: Modesetting = .auto,
                maxImagePixels: ImagePixelLimit = .default,
                power: DisplayPowerConfiguration = DisplayPowerConfiguration(),
                cec: CEC = .auto) {
        self.output = output
        self.connector = connector
        self.mode = mode
        self.rotation = rotation
        self.scaling = scaling
        self.background = background
        self.modesetting = modesetting
        self.maxImagePixels = maxImagePixels
        self.power = power
        self.cec = cec
    }
}
