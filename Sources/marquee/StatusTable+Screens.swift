import MarqueeCore
import MarqueeSession

extension StatusTable {
    /// `right  HDMI-A-2 drm 1920x1080  plays 2/3 b.mp4 (playing)` or `copy  DP-1 drm 1280x720  mirrors left`;
    /// a DRM screen whose picture is paused says why: `right  HDMI-A-2 drm 1920x1080 (unplugged)  ...`.
    static func screenRow(_ screen: StatusDocument.Screen) -> String {
        var head = "\(screen.name)  \(screen.connector) \(screen.kind) \(screen.width)x\(screen.height)"
        if let picture = screen.picture, picture != "shown" { head += " (\(picture))" }
        if let mirrored = screen.mirrors { return "\(head)  mirrors \(mirrored)" }
        guard let playing = screen.playing else { return head }
        guard let index = playing.index else { return "\(head)  plays -/\(playing.itemCount) (\(playing.state.rawValue))" }
        let name = playing.url.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? "?"
        return "\(head)  plays \(index + 1)/\(playing.itemCount) \(name) (\(playing.state.rawValue))"
    }
}
