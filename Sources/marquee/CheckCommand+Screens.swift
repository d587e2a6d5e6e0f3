import MarqueeConfig
import MarqueeSession

extension CheckCommand {
    /// One line per screen of `displays:`, in file order, under the summary: what an operator
    /// wiring the screens needs to see at a glance (which connector shows what, which one the
    /// keys and `audio.device` follow), since the summary's counts add the screens together.
    /// `  screen menu on HDMI-A-1: 2 items, repeat all, the main screen (keys, control, audio.device)`,
    /// `  screen window on DP-1: mirrors menu`. None for a single screen.
    static func screenLines(of configuration: MarqueeConfiguration) -> [String] {
        let screens = configuration.screens
        // The main screen's playlist is `configuration.playlist`; it is `audio.screen`, else the first with one.
        let main = configuration.audio.screen ?? screens.first { $0.playlist != nil }?.name
        return screens.map { screen in
            var line = "  screen \(screen.name) on \(screen.connector): "
            switch screen.content {
            case .mirror(let mirrored):
                line += "mirrors \(mirrored)"
            case .playlist(let playlist):
                line += "\(itemCount(playlist.items.count)), repeat \(playlist.repeat.rawValue)"
            }
            if screen.name == main {
                line += ", the main screen (keys, control, audio.device)"
            } else if let device = screen.audioDevice {
                line += ", sound on \(device)"
            }
            return line
        }
    }
}
