import MarqueeCore

/// `osd:`: the on-screen display (the media controller's labels) and the status card.
public struct OSDConfiguration: Sendable, Equatable, Codable {
    public var enabled = true
    /// Seconds the labels stay after a command, the fade included.
    public var duration = 3.0
    public var position = OSDSettings.Position.bottom
    public var scale = 1.0
    /// Element names (`OSDElement` raw values); all of them by default.
    public var show = OSDElement.allCases.map(\.rawValue)
    public var statusCard = true
    /// A font file (relative paths resolved against the config's folder); nil: DejaVu Sans.
    public var font: String?
    /// Seconds a stall lasts before the labels say "Buffering N s".
    public var stallAfter = 1.0

    public init() {}

    /// What the player takes.
    public var settings: OSDSettings {
        var settings = OSDSettings()
        settings.enabled = enabled
        settings.duration = MediaTime(Int64((duration * 1000).rounded()), per: 1000)
        settings.position = position
        settings.scale = scale
        settings.show = Set(show.compactMap(OSDElement.init(rawValue:)))
        settings.statusCard = statusCard
        settings.font = font
        settings.stallAfter = MediaTime(Int64((stallAfter * 1000).rounded()), per: 1000)
        return settings
    }
}
