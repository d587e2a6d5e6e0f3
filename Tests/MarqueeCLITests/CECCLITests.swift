import Foundation
import Testing

/// `display.cec` in the real `marquee play` (headless): an adapter that cannot be opened is one
/// error line naming the path and the cause, and playback goes on; displayOff and displayOn still
/// act (on the output) and add no line of their own. The guest test (Deploy/vm/cec-test.sh) checks
/// the messages on vivid's emulated bus.
@Suite struct CECCLITests {
    static func cecLines(_ stderr: String) -> [Substring] {
        stderr.split(separator: "\n").filter { $0.contains("cec: ") }
    }

    @Test func aMissingAdapterIsOneLineAndPlaybackGoesOn() throws {
        let folder = try PlayCommandTests.workspace.get()
        try Data("playlist:\n  repeat: off\n  items: [a.mp4]\ndisplay:\n  cec: /dev/cec-missing\n".utf8)
            .write(to: folder.appendingPathComponent("cec-missing.yaml"))

        let run = try PlayerRun(arguments: ["play", "cec-missing.yaml", "--output", "headless:160x90", "--clock", "fast",
                                            "--exit-when-idle", "--audio", "null"], in: folder)
        #expect(run.waitForExit(seconds: 60) == 0)

        let events = run.events()
        #expect(events.filter { $0["event"] as? String == "frame" }.count >= 45)
        #expect(events.contains { $0["event"] as? String == "itemEnded" && $0["reason"] as? String == "playbackEnded" })
        let stderr = run.standardError()
        #expect(Self.cecLines(stderr) == ["error: cec: cannot use /dev/cec-missing: No such file or directory; playing on without HDMI-CEC"],
                "\(stderr)")
    }

    @Test func displayPowerStillActsWithoutTheAdapterAndSaysNothingMore() throws {
        let folder = try PlayCommandTests.workspace.get()
        try Data("playlist:\n  repeat: all\n  items: [a.mp4]\ndisplay:\n  cec: /dev/cec-missing\n".utf8)
            .write(to: folder.appendingPathComponent("cec-power.yaml"))
        let player = try ControlledPlayer(arguments: ["play", "cec-power.yaml", "--output", "headless:160x90",
                                                      "--clock", "realtime", "--audio", "null"], in: folder)
        #expect(player.run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        for command in ["displayOff", "displayOn", "displayOff", "displayOn"] {
            #expect(try player.request(["command": command])["ok"] as? Bool == true)
        }
        #expect(player.run.waitForEvents {
            $0.filter { $0["event"] as? String == "displayPowerChanged" }.count == 4
        })
        #expect(try player.request(["command": "quit"])["ok"] as? Bool == true)
        #expect(player.run.waitForExit(seconds: 20) == 0)
        let stderr = player.run.standardError()
        #expect(Self.cecLines(stderr).count == 1, "\(stderr)")
        #expect(!stderr.contains("display: cannot turn"), "\(stderr)")
    }

    /// `auto` with a headless output looks for no adapter and says nothing.
    @Test func autoIsSilentHeadless() throws {
        let folder = try PlayCommandTests.workspace.get()
        let run = try PlayerRun(arguments: ["play", "silent.mp4", "--output", "headless:160x90", "--clock", "fast",
                                            "--exit-when-idle", "--repeat", "off", "--audio", "null"], in: folder)
        #expect(run.waitForExit(seconds: 60) == 0)
        #expect(Self.cecLines(run.standardError()).isEmpty, "\(run.standardError())")
    }
}
