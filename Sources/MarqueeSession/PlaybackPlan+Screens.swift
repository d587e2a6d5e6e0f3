import MarqueeConfig
import MarqueeCore
import MarqueePlayer

extension PlaybackPlan {
    /// The screen whose playlist is `items` (on `audio.device`): `audio.screen`, else the first with
    /// a playlist; nil for a single screen.
    package var mainScreen: ScreenConfiguration? {
        if let name = audio.screen { return screens.first { $0.name == name } }
        return screens.first { $0.playlist != nil }
    }

    /// The screens that play a playlist of their own besides the main one.
    package var otherPlayingScreens: [ScreenConfiguration] {
        screens.filter { $0.playlist != nil && $0.name != mainScreen?.name }
    }

    /// `displays:` as a reload compares it: the main screen's playlist reloads like `playlist:`;
    /// anything else about the screens is opened at start.
    package var screensBesideMainPlaylist: [ScreenConfiguration] {
        screens.map { screen in
            var screen = screen
            if screen.name == mainScreen?.name { screen.content = .playlist(PlaylistConfiguration(items: [])) }
            return screen
        }
    }

    /// The player settings of a screen other than the main one: its playlist's repeat and end
    /// action, its own look; the rest as the main screen's.
    package func settings(for screen: ScreenConfiguration, overrides: PlanOverrides) -> PlayerSettings {
        var settings = self.settings
        if let playlist = screen.playlist {
            settings.repeatMode = overrides.repeatMode ?? playlist.repeat
            settings.actionAtItemEnd = playlist.actionAtItemEnd
            settings.shuffleSeed = playlist.seed ?? UInt64.random(in: .min ... .max)
        }
        settings.scaling = overrides.scaling ?? screen.scaling
        settings.background = screen.background
        settings.displayRotation = screen.rotation
        return settings
    }
}
