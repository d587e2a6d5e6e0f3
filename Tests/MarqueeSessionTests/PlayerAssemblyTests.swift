import Logging
import Foundation
import MarqueeConfig
import MarqueeCore
import MarqueePlayer
import Testing
@testable import MarqueeSession

/// One set of rules makes every screen's player: the main one and each screen of `displays:`.
@Suite struct PlayerAssemblyTests {
    func plan(sync: Bool) throws -> PlaybackPlan {
        let folder = try MediaFolder()
        defer { folder.remove() }
        let text = "playlist:\n  repeat: all\n  items:\n    - url: /media/a.mp4\n" + (sync ? "sync:\n  epoch: 2026-01-01T00:00:00Z\n" : "")
        return try PlaybackPlan.fromConfig(path: try folder.write("marquee.yaml", text))
    }

    final class TurningDisplay: ScreenDisplay, @unchecked Sendable {
        let summary = "card0 HDMI-A-1 1920x1080@60"
        let rotatesInHardware = true
        let pictureState = "shown"
    }

    @Test func theSoundClockIsFollowedOnlyWhereItKeepsTheWallsTime() throws {
        let screen = ScreenOutput(screen: nil, output: HeadlessVideoOutput(), display: nil)
        let card = AudioDevice(output: NullAudioOutput(), isDevice: true, deviceName: "hw:0", keepsTime: true)
        let nullPlugin = AudioDevice(output: NullAudioOutput(), isDevice: true, deviceName: "null", keepsTime: false)
        let free = PlayerAssembly(plan: try plan(sync: false), backends: .inProcess(), clock: MonotonicClock())
        let wall = PlayerAssembly(plan: try plan(sync: true), backends: .inProcess(), clock: MonotonicClock())
        let fast = PlayerAssembly(plan: try plan(sync: false), backends: .inProcess(), clock: VirtualClock())
        #expect(free.settings(free.plan.settings, for: screen, audio: nullPlugin, waitsForContent: false, logger: Logger(label: "test")).followsAudioClock)
        #expect(wall.settings(wall.plan.settings, for: screen, audio: card, waitsForContent: false, logger: Logger(label: "test")).followsAudioClock)
        #expect(!wall.settings(wall.plan.settings, for: screen, audio: nullPlugin, waitsForContent: false, logger: Logger(label: "test")).followsAudioClock,
                "a device that keeps no time cannot be resampled onto the wall")
        #expect(!fast.settings(fast.plan.settings, for: screen, audio: card, waitsForContent: false, logger: Logger(label: "test")).followsAudioClock,
                "the virtual clock runs faster than any device")
    }

    @Test func aPlaneThatTurnsThePictureLeavesItUnturnedAndTheWaitAndStopRulesHold() throws {
        var base = try plan(sync: false)
        base.settings.displayRotation = .clockwise90
        base.input.stopTimeout = MediaTime(seconds: 7)
        let assembly = PlayerAssembly(plan: base, backends: .inProcess(), clock: MonotonicClock())
        let turning = ScreenOutput(screen: nil, output: HeadlessVideoOutput(), display: TurningDisplay())
        let plain = ScreenOutput(screen: nil, output: HeadlessVideoOutput(), display: nil)
        let audio = AudioDevice(output: NullAudioOutput(), isDevice: false)
        let onPlane = assembly.settings(base.settings, for: turning, audio: audio, waitsForContent: true, logger: Logger(label: "test"))
        #expect(onPlane.displayRotation == .none && onPlane.waitsForContent && onPlane.stopTimeout == MediaTime(seconds: 7))
        #expect(assembly.settings(base.settings, for: plain, audio: audio, waitsForContent: false, logger: Logger(label: "test")).displayRotation == .clockwise90)
    }
}
