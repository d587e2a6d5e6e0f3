import Foundation
import MarqueeCore
import MarqueeTestSupport
import Testing
@testable import marquee

/// `marquee ctl status` with `displays:`: one `screen` row per screen, saying what it plays or mirrors.
@Suite struct ScreenStatusTableTests {
    @Test func eachScreenHasARow() {
        var playing = PlaybackStatus(itemCount: 3, repeatMode: .all, scaling: .aspectFit, volume: 1)
        playing.state = .playing
        playing.itemIndex = 1
        playing.itemURL = "/media/b.mp4"
        var left = StatusDocument.Screen(name: "left", connector: "HDMI-A-1", kind: "drm", size: PixelSize(width: 1920, height: 1080))
        left.picture = "shown"
        left.playing = StatusDocument.Screen.Playing(playing)
        var copy = StatusDocument.Screen(name: "copy", connector: "DP-1", kind: "drm", size: PixelSize(width: 1280, height: 720))
        copy.mirrors = "left"
        copy.picture = "unplugged"
        let stopped = PlaybackStatus(itemCount: 2, repeatMode: .all, scaling: .aspectFit, volume: 1)
        var idle = StatusDocument.Screen(name: "idle", connector: "HDMI-A-2", kind: "headless", size: PixelSize(width: 640, height: 480))
        idle.playing = StatusDocument.Screen.Playing(stopped)
        var status = StatusDocument.sample()
        status.screens = [left, copy, idle]
        let text = StatusTable.text(status)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("screen ") }.map { String($0.dropFirst(6)).trimmingCharacters(in: .whitespaces) }
        #expect(rows == ["left  HDMI-A-1 drm 1920x1080  plays 2/3 b.mp4 (playing)",
                         "copy  DP-1 drm 1280x720 (unplugged)  mirrors left",
                         "idle  HDMI-A-2 headless 640x480  plays -/2 (stopped)"], "\(text)")
    }

    @Test func aSingleScreenHasNoScreenRow() {
        #expect(!StatusTable.text(.sample()).contains("screen "))
    }
}
