import Foundation
import MarqueeCore
import Testing
@testable import marquee

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
}
