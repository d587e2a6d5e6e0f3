/// How the on-screen display looks and when it shows (config `osd:`).
public struct OSDSettings: Sendable, Equatable {
    /// Where the panel sits on the upright screen.
    public enum Position: String, Sendable, CaseIterable, Codable {
        case top, center, bottom
    }

    /// The media controller's labels after each transport command (`osd.enabled`).
    public var enabled = true
    /// How long they stay after the last command, the fade included (`osd.duration`).
    public var duration = MediaTime(seconds: 3)
    public var position = Position.bottom
    /// Text and panel size against the default (text 1/30 of the screen's height).
    public var scale = 1.0
    /// Which elements appear (`osd.show`).
    public var show = Set(OSDElement.allCases)
    /// A card saying why instead of black when nothing can be played (`osd.statusCard`).
    public var statusCard = true
    /// The font file; nil: DejaVu Sans from fonts-dejavu-core.
    public var font: String?
    /// How long a stall lasts before the labels come up saying "Buffering N s" (`osd.stallAfter`).
    public var stallAfter = MediaTime(seconds: 1)

    /// The fade at the end of `duration`: gone gradually, never mid-frame.
    public static let fade = MediaTime(1, per: 2)
    public static let defaultFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    public init() {}
}
extension OSDElement: Codable {}
