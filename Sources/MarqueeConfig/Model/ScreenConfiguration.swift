import MarqueeCore

/// One entry of `displays:`: a screen on its own connector, in its own mode, showing either its own
/// playlist or another screen's picture (`mirror:`).
public struct ScreenConfiguration: Sendable, Equatable, Codable {
    /// What a screen shows.
    public enum Content: Sendable, Equatable, Codable {
        case playlist(PlaylistConfiguration)
        /// The named screen's pictures, decoded once and drawn again for this screen's mode.
        case mirror(String)
    }

    /// How the screen is called in `mirror:`, `audio.screen`, `status` and the events file.
    public var name: String
    /// A DRM connector name such as `HDMI-A-2`: each screen names its own.
    public var connector: String
    public var mode: DisplayConfiguration.Mode
    public var rotation: Rotation
    public var scaling: ScalingMode
    public var background: RGBColor
    public var content: Content
    /// `audio.device` of this screen (an HDMI port's own PCM); nil: the top-level `audio.device`
    /// when this is the `audio.screen`, else no sound.
    public var audioDevice: String?

    public init(name: String, connector: String, mode: DisplayConfiguration.Mode = .preferred, rotation: Rotation = .none,
                scaling: ScalingMode = .default, background: RGBColor = .black, content: Content, audioDevice: String? = nil) {
        self.name = name
        self.connector = connector
        self.mode = mode
        self.rotation = rotation
        self.scaling = scaling
        self.background = background
        self.content = content
        self.audioDevice = audioDevice
    }

    /// The screen's playlist; nil for a mirror.
    public var playlist: PlaylistConfiguration? {
        if case .playlist(let playlist) = content { return playlist }
        return nil
    }

    /// The screen it mirrors; nil when it plays its own playlist.
    public var mirrored: String? {
        if case .mirror(let name) = content { return name }
        return nil
    }
}
