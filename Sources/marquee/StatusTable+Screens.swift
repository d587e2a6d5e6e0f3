extension StatusTable {
    /// `right  HDMI-A-2 drm 1920x1080  plays 2/3 b.mp4 (playing)` or `copy  DP-1 drm 1280x720  mirrors left`;
    /// a DRM screen whose picture is paused says why: `right  HDMI-A-2 drm 1920x1080 (unplugged)  ...`.
    static func screenRow(_ screen: [String: Any]) -> String {
        var head = "\(screen["name"] ?? "?")  \(screen["connector"] ?? "?") \(screen["kind"] ?? "?") \(screen["width"] ?? "?")x\(screen["height"] ?? "?")"
        if let picture = screen["picture"] as? String, picture != "shown" { head += " (\(picture))" }
        if let mirrored = screen["mirrors"] as? String { return "\(head)  mirrors \(mirrored)" }
        guard let playing = screen["playing"] as? [String: Any] else { return head }
        let count = playing["itemCount"] as? Int ?? 0
        guard let index = playing["index"] as? Int else { return "\(head)  plays -/\(count) (\(playing["state"] ?? "?"))" }
        let name = (playing["url"] as? String).map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? "?"
        return "\(head)  plays \(index + 1)/\(count) \(name) (\(playing["state"] ?? "?"))"
    }
}
