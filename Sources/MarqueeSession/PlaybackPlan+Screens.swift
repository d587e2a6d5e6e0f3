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

    /// `displays:` as a reload compares it: every screen's playlist reloads (the main one's like
    /// `playlist:`, the others' through `ScreenPlayers.replaceQueues`); anything else about the
    /// screens (which there are, their connectors and modes, what mirrors what) is opened at start.
    package var screensBesidePlaylists: [ScreenConfiguration] {
        screens.map { screen in
            var screen = screen
            if screen.playlist != nil { screen.content = .playlist(PlaylistConfiguration(items: [])) }
            return screen
        }
    }

    /// The screens as opened at start (`running`'s), each playing screen with its playlist from
    /// this plan where this plan has the same screen playing a playlist.
    package func screensKeepingPlaylists(from running: PlaybackPlan) -> [ScreenConfiguration] {
        running.screens.map { screen in
            guard screen.playlist != nil, let fresh = screens.first(where: { $0.name == screen.name }), fresh.playlist != nil else { return screen }
            var kept = screen
            kept.content = fresh.content
            return kept
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
