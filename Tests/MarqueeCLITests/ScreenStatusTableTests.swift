import Foundation
import Testing
@testable import marquee

/// `marquee ctl status` with `displays:`: one `screen` row per screen, saying what it plays or mirrors.
@Suite struct ScreenStatusTableTests {
    @Test func eachScreenHasARow() {
        let text = StatusTable.text(["state": "playing", "screens": [
            ["name": "left", "connector": "HDMI-A-1", "kind": "drm", "width": 1920, "height": 1080,
             "picture": "shown", "playing": ["state": "playing", "itemCount": 3, "index": 1, "url": "/media/b.mp4"] as [String: Any]],
            ["name": "copy", "connector": "DP-1", "kind": "drm", "width": 1280, "height": 720, "mirrors": "left", "picture": "unplugged"],
            ["name": "idle", "connector": "HDMI-A-2", "kind": "headless", "width": 640, "height": 480,
             "playing": ["state": "stopped", "itemCount": 2] as [String: Any]],
        ] as [[String: Any]]])
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("screen ") }.map { String($0.dropFirst(6)).trimmingCharacters(in: .whitespaces) }
        #expect(rows == ["left  HDMI-A-1 drm 1920x1080  plays 2/3 b.mp4 (playing)",
                         "copy  DP-1 drm 1280x720 (unplugged)  mirrors left",
                         "idle  HDMI-A-2 headless 640x480  plays -/2 (stopped)"], "\(text)")
    }

    @Test func aSingleScreenHasNoScreenRow() {
        #expect(!StatusTable.text(["state": "playing"]).contains("screen "))
    }
}
