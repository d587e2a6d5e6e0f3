import Foundation
import MarqueePlayer
import Testing
@testable import MarqueeSession

/// What a reload may not change is one table (`RestartOnlySetting.all`): the warning names each
/// key that differs, the copy-back keeps each one as it runs, and the engine's own list names only
/// keys of the table.
@Suite struct RestartOnlySettingTests {
    static func plans(_ running: String, _ reloaded: String) throws -> (PlaybackPlan, PlaybackPlan) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-restart-only-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("plan.yaml")
        try Data(running.utf8).write(to: config)
        let first = try PlaybackPlan.fromConfig(path: config.path)
        try Data(reloaded.utf8).write(to: config)
        return (first, try PlaybackPlan.fromConfig(path: config.path))
    }

    /// Every restart-only key changed at once (the screens apart: `display.connector` and
    /// `displays` cannot stand together).
    static let everyKeyChanged = try! plans("playlist: {items: [a.mp4]}\ninput: {grab: false}\n", """
        playlist: {items: [b.mp4]}
        display:
          output: headless:640x480
          connector: HDMI-A-2
          mode: 1280x720
          modesetting: legacy
          cec: "off"
          maxImagePixels: 1024x1024
        audio: {device: "hw:1,0", volume: 0.5, bufferTime: 0.3, periodTime: 0.03}
        input:
          devices: none
          grab: true
          keymap: none
          keys: {KEY_A: next}
          stopTimeout: 5
          lockdown: true
          visitorKeys: [next]
        log: {level: debug}
        control: {socket: /tmp/restart-only.sock, roles: {others: observe}}
        mqtt: {url: "mqtt://127.0.0.1", topic: hall}
        metrics: {listen: "0.0.0.0:9150"}
        osd: {enabled: false}
        network: {readAhead: 3}
        source: https://cms.example/lobby.yaml
        cache: {maxBytes: 1G}
        proofOfPlay: {keepDays: 30}
        device: {id: lobby-9}
        resume: true
        """)

    static let screens = """
        displays:
          - {name: menu, connector: HDMI-A-1, playlist: {items: [a.mp4]}}
          - {name: offers, connector: HDMI-A-2, playlist: {items: [c.mp4]}}
        """
    /// Only the second screen's connector changed, and the main screen's playlist (which reloads).
    static let screensChanged = try! plans(screens, screens.replacingOccurrences(of: "HDMI-A-2", with: "DP-1")
        .replacingOccurrences(of: "[a.mp4]", with: "[b.mp4]"))

    @Test func theFixturesChangeEveryKeyOfTheTable() {
        let changed = Self.everyKeyChanged.0.restartOnlyChanges(comparedWith: Self.everyKeyChanged.1)
            + Self.screensChanged.0.restartOnlyChanges(comparedWith: Self.screensChanged.1)
        #expect(Set(changed) == Set(RestartOnlySetting.all.map(\.key)))
        #expect(changed.count == RestartOnlySetting.all.count)
    }

    /// Reloading the same changed file twice warns twice: after the first, the plan kept is what
    /// runs (every key of the table as it was), not the file's. `displays` used to be warned about
    /// and not kept, so the second reload compared with the file and said nothing.
    @Test(arguments: [everyKeyChanged, screensChanged])
    func whatIsWarnedAboutIsKeptSoTheNextReloadWarnsAgain(plans: (PlaybackPlan, PlaybackPlan)) {
        let (running, reloaded) = plans
        let warned = running.restartOnlyChanges(comparedWith: reloaded)
        let kept = reloaded.keepingRestartOnly(from: running)
        #expect(running.restartOnlyChanges(comparedWith: kept).isEmpty)
        #expect(kept.restartOnlyChanges(comparedWith: reloaded) == warned)
        // What reloads does: the playlist, and the volume.
        #expect(kept.items.map(\.url) == reloaded.items.map(\.url))
        #expect(kept.audio.volume == reloaded.audio.volume)
    }

    @Test func theScreensStayAsOpenedAndTheirPlaylistsReload() throws {
        let (running, reloaded) = Self.screensChanged
        let kept = reloaded.keepingRestartOnly(from: running)
        #expect(kept.screens.map(\.connector) == ["HDMI-A-1", "HDMI-A-2"])
        // Another screen's playlist alone is no restart-only change, and the plan kept has it.
        let (before, after) = try Self.plans(Self.screens, Self.screens.replacingOccurrences(of: "[c.mp4]", with: "[d.mp4]"))
        #expect(before.restartOnlyChanges(comparedWith: after).isEmpty)
        let playlists = after.keepingRestartOnly(from: before).screens.map { $0.playlist?.items.map { URL(fileURLWithPath: $0.location.description).lastPathComponent } }
        #expect(playlists == [["a.mp4"], ["d.mp4"]])
    }

    /// The engine keeps its own settings from the run whatever a new queue says; those it reads
    /// from the config are restart-only keys of the table.
    @Test func theEnginesConfigKeysAreKeysOfTheTable() {
        let keys = RestartOnlySetting.all.map(\.key)
        let engineKeys = PlayerRunSetting.all.compactMap(\.configKey)
        #expect(engineKeys == ["input.stopTimeout", "network.readAhead"])
        for key in engineKeys { #expect(keys.contains(key), "\(key)") }
    }
}
