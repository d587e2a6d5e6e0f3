import Foundation
import MarqueeConfig
import MarqueeCore
import Testing
@testable import MarqueeSession

/// What `marquee play CONFIG` hands the player: the config's display settings and each item's own.
/// The player's tests check that these reach the pixels (QueuePlayerScalingTests).
@Suite struct PlaybackPlanTests {
    @Test func theConfigsBackgroundScalingAndEachItemsOwnScalingReachThePlayer() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("plan.yaml")
        try Data("""
            playlist:
              items:
                - url: a.mp4
                  scaling: none
                - b.mp4
            display:
              scaling: fill
              background: "#204060"
            """.utf8).write(to: config)
        let plan = try PlaybackPlan.fromConfig(path: config.path)
        #expect(plan.settings.background == RGBColor(red: 0x20, green: 0x40, blue: 0x60))
        #expect(plan.settings.scaling == .fill)
        #expect(plan.items.map(\.scaling) == [ScalingMode.none, nil])
    }

    @Test func theNetworkReadAheadReachesThePlayerAndIsRestartOnly() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("plan.yaml")
        try Data("playlist:\n  items: [a.mp4]\nnetwork:\n  readAhead: 4\n".utf8).write(to: config)
        let plan = try PlaybackPlan.fromConfig(path: config.path)
        #expect(plan.settings.readAhead == .seconds(4))

        try Data("playlist:\n  items: [a.mp4]\n".utf8).write(to: config)
        let reloaded = try PlaybackPlan.fromConfig(path: config.path)
        #expect(reloaded.settings.readAhead == .seconds(10))
        #expect(plan.restartOnlyChanges(comparedWith: reloaded) == ["network.readAhead"])
    }

    /// Each daypart plays with its own repeat mode and shuffle seed (drawn once per load when the
    /// config gives none, so a daypart that comes back shuffles the same way); `--repeat` is every
    /// daypart's. A config without any schedule has no timetable to follow.
    @Test func eachDaypartKeepsItsOwnRepeatModeAndSeed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("plan.yaml")
        try Data("""
            schedule: {timezone: UTC}
            playlists:
              lunch:
                schedule: {from: "11:00", to: "15:00"}
                repeat: shuffle
                seed: 42
                items: [a.mp4, b.mp4, c.mp4]
              night:
                schedule: {from: "22:00", to: "06:00"}
                repeat: shuffle
                items: [d.mp4, e.mp4]
              default:
                repeat: off
                items: [f.mp4]
            """.utf8).write(to: config)
        let plan = try PlaybackPlan.fromConfig(path: config.path)
        let playlists = try #require(plan.schedule).playlists
        #expect(playlists.map(\.repeatMode) == [.shuffle, .shuffle, .off])
        #expect(playlists[0].shuffleSeed == 42)
        #expect(playlists.map { $0.items.map(\.url) } == [["a.mp4", "b.mp4", "c.mp4"], ["d.mp4", "e.mp4"], ["f.mp4"]].map { $0.map { folder.appendingPathComponent($0).path } })
        let lunch = ScheduleState(daypart: 0, items: [0, 2], displayOn: true)
        let queue = playlists.isEmpty ? nil : try #require(plan.schedule).queue(for: lunch, base: plan.settings)
        #expect(queue?.items.map(\.url) == ["a.mp4", "c.mp4"].map { folder.appendingPathComponent($0).path })
        #expect(queue?.settings.repeatMode == .shuffle && queue?.settings.shuffleSeed == 42)

        var overridden = plan
        PlanOverrides(repeatMode: .all).apply(to: &overridden)
        #expect(overridden.schedule?.playlists.map(\.repeatMode) == [.all, .all, .all])

        try Data("playlist:\n  items: [a.mp4]\n".utf8).write(to: config)
        #expect(try PlaybackPlan.fromConfig(path: config.path).schedule == nil)
    }

    @Test func theCECSettingReachesThePlanAndIsRestartOnly() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("plan.yaml")
        try Data("playlist:\n  items: [a.mp4]\ndisplay:\n  cec: /dev/cec1\n".utf8).write(to: config)
        let plan = try PlaybackPlan.fromConfig(path: config.path)
        #expect(plan.cec == .device(path: "/dev/cec1"))

        try Data("playlist:\n  items: [a.mp4]\ndisplay:\n  cec: off\n".utf8).write(to: config)
        let reloaded = try PlaybackPlan.fromConfig(path: config.path)
        #expect(reloaded.cec == .off)
        #expect(plan.restartOnlyChanges(comparedWith: reloaded) == ["display.cec"])
    }

    @Test func theMQTTSettingsReachThePlanAndAreRestartOnly() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("plan.yaml")
        try Data("playlist:\n  items: [a.mp4]\n".utf8).write(to: config)
        let plan = try PlaybackPlan.fromConfig(path: config.path)
        #expect(plan.mqtt == nil)

        try Data("playlist:\n  items: [a.mp4]\nmqtt:\n  url: mqtt://10.0.0.2\n  topic: fleet/hall\n".utf8).write(to: config)
        let reloaded = try PlaybackPlan.fromConfig(path: config.path)
        #expect(reloaded.mqtt?.host == "10.0.0.2" && reloaded.mqtt?.topic == "fleet/hall")
        #expect(plan.restartOnlyChanges(comparedWith: reloaded) == ["mqtt"])
        #expect(reloaded.restartOnlyChanges(comparedWith: reloaded).isEmpty)
    }

    @Test func theMetricsAddressReachesThePlanIsRestartOnlyAndTheFlagOverridesIt() throws {
        var (plan, reloaded) = try RestartOnlySettingTests.plans("playlist:\n  items: [a.mp4]\n",
                                                                 "playlist:\n  items: [a.mp4]\nmetrics:\n  listen: 0.0.0.0:9100\n")
        #expect(plan.metrics == nil)
        #expect(reloaded.metrics?.listen == MetricsListenAddress(host: "0.0.0.0", port: 9100))
        #expect(plan.restartOnlyChanges(comparedWith: reloaded) == ["metrics"])
        #expect(reloaded.keepingRestartOnly(from: plan).metrics == nil)

        PlanOverrides(metrics: .some(MetricsListenAddress(host: "::1", port: 9150))).apply(to: &plan)
        #expect(plan.metrics?.listen.description == "[::1]:9150")
        PlanOverrides(metrics: .some(nil)).apply(to: &reloaded)
        #expect(reloaded.metrics == nil)
    }
}
