import MarqueeConfig
import MarqueePlayer

/// One part of a config that a reload may not change while playing: the screen, the sound card,
/// the input devices, the socket, the broker, the metrics server and the cache are opened once at start. This table is
/// the only list of them: the reload's warning (`restartOnlyChanges`) and its copy-back
/// (`keepingRestartOnly`) both read it, so a key cannot be warned about without being kept (which
/// left `displays` compared with a value that was not running), nor kept without a warning. The
/// engine's own list (`PlayerSettings.runSettings`) names the key of each of its entries that comes
/// from here, and a test holds the two together.
package struct RestartOnlySetting {
    /// The config key the warning names (`display.connector`).
    package let key: String
    /// Whether two plans differ in it.
    package let differs: (PlaybackPlan, PlaybackPlan) -> Bool
    /// Puts the running plan's value into the next one, so the next reload compares with what runs.
    package let keep: (_ running: PlaybackPlan, _ next: inout PlaybackPlan) -> Void

    /// A stored part of the plan, compared and copied through one key path: the two cannot disagree.
    package static func field<Value: Equatable>(_ key: String, _ path: WritableKeyPath<PlaybackPlan, Value>) -> RestartOnlySetting {
        RestartOnlySetting(key: key,
                           differs: { $0[keyPath: path] != $1[keyPath: path] },
                           keep: { running, next in next[keyPath: path] = running[keyPath: path] })
    }

    /// In the order the warning names them. `audio.volume` is not here: a reload sets it.
    package static var all: [RestartOnlySetting] {
        [
            .field("display.output", \.output),
            // Every screen's playlist reloads; the rest of the screens, and which one is main
            // (`audio.screen`), stay as opened.
            RestartOnlySetting(key: "displays",
                               differs: { $0.screensBesidePlaylists != $1.screensBesidePlaylists },
                               keep: { running, next in
                                   next.screens = next.screensKeepingPlaylists(from: running)
                                   next.audio.screen = running.audio.screen
                               }),
            .field("display.connector", \.connector),
            .field("display.mode", \.mode),
            .field("display.modesetting", \.modesetting),
            .field("display.cec", \.cec),
            .field("display.maxImagePixels", \.maxImagePixels),
            .field("audio.device", \.audio.device),
            .field("audio.bufferTime", \.audio.bufferTime),
            .field("audio.periodTime", \.audio.periodTime),
            .field("input.devices", \.input.devices),
            .field("input.grab", \.input.grab),
            .field("input.keymap", \.input.baseKeyMap),
            .field("input.keys", \.input.keyOverrides),
            .field("input.stopTimeout", \.input.stopTimeout),
            .field("input.lockdown", \.input.lockdown),
            .field("input.visitorKeys", \.input.visitorCommands),
            .field("log.level", \.logLevel),
            .field("control.socket", \.control.socket),
            .field("control.roles", \.control.roles),
            .field("mqtt", \.mqtt),
            .field("metrics", \.metrics),
            .field("osd", \.osd),
            // The media opener is made once, with the read-ahead, when playing starts.
            .field("network.readAhead", \.settings.readAhead),
            // The cache is opened, and the source polled, from the start.
            .field("source", \.remote),
            .field("cache", \.cache),
            // The ledger's folder is opened, and its chain read, when playing starts.
            .field("proofOfPlay", \.proofOfPlay),
            .field("device", \.device),
            .field("resume", \.resume),
        ]
    }
}

extension PlaybackPlan {
    /// What a reload cannot change while playing, by config key, where `other` differs from this plan.
    package func restartOnlyChanges(comparedWith other: PlaybackPlan) -> [String] {
        RestartOnlySetting.all.filter { $0.differs(self, other) }.map(\.key)
    }

    /// This plan with every restart-only part as `running` has it: what is not applied stays as it
    /// is, so the next reload compares with what runs.
    package func keepingRestartOnly(from running: PlaybackPlan) -> PlaybackPlan {
        var next = self
        for setting in RestartOnlySetting.all { setting.keep(running, &next) }
        return next
    }
}
