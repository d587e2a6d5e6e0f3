/// One of a run's own settings, which a new queue (a reload, a fetched config, a control client's
/// `load`) never changes: the session sets them once at start, from the command line, the clock
/// it chose, or a config key that needs a restart. A replacement's settings come from a config
/// that carries none of them (a control client's `load` goes around the reload's copy-back), so
/// the player keeps its own. `configKey` names the restart-only config key an entry comes from:
/// the executable's table of those keys (`RestartOnlySetting`) must list it, and a test says so.
public struct PlayerRunSetting {
    /// The `PlayerSettings` property.
    public let name: String
    /// The restart-only config key it is read from; nil for the run's own (a flag, the clock).
    public let configKey: String?
    /// Puts the running value into the new settings.
    public let keep: (_ running: PlayerSettings, _ next: inout PlayerSettings) -> Void

    /// Kept through one key path, so what is named is what is kept.
    static func field<Value>(_ name: String, configKey: String? = nil, _ path: WritableKeyPath<PlayerSettings, Value>) -> PlayerRunSetting {
        PlayerRunSetting(name: name, configKey: configKey, keep: { running, next in next[keyPath: path] = running[keyPath: path] })
    }

    public static var all: [PlayerRunSetting] {
        [
            .field("exitWhenIdle", \.exitWhenIdle),
            .field("waitsForContent", \.waitsForContent),
            .field("followsAudioClock", \.followsAudioClock),
            .field("retryDelay", \.retryDelay),
            .field("maximumRetryDelay", \.maximumRetryDelay),
            // It belongs with the keys (`input:`), which a new playlist does not change.
            .field("stopTimeout", configKey: "input.stopTimeout", \.stopTimeout),
            // The opener reads ahead as much as it was made with; the queue must plan by the same.
            .field("readAhead", configKey: "network.readAhead", \.readAhead),
        ]
    }
}

extension PlayerSettings {
    /// These settings with the run's own (`PlayerRunSetting.all`) as `running` has them.
    public func keepingRunSettings(of running: PlayerSettings) -> PlayerSettings {
        var settings = self
        for setting in PlayerRunSetting.all { setting.keep(running, &settings) }
        return settings
    }
}
