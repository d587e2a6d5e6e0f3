import Foundation
import Testing

@Suite struct CheckCommandTests {
    static let exampleConfigs: [String] = {
        let folder = MarqueeProcess.repositoryRoot().appendingPathComponent("Config")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let configExtensions: Set<String> = ["yaml", "yml", "json", "m3u", "m3u8"]
        return names.filter { configExtensions.contains(URL(fileURLWithPath: $0).pathExtension.lowercased()) }
            .sorted()
            .map { "Config/\($0)" }
    }()

    @Test func theExamplesFolderHasTheDocumentedConfigs() {
        for name in ["demo.yaml", "signage-loop.yaml", "museum-keypad.yaml", "dayparts.yaml", "playlist.json", "playlist.m3u"] {
            #expect(Self.exampleConfigs.contains("Config/\(name)"), "Config/\(name) is missing")
        }
    }

    @Test(arguments: exampleConfigs)
    func everyExampleConfigPasses(path: String) throws {
        let outcome = try MarqueeProcess.run(["check", path], in: MarqueeProcess.repositoryRoot())

        #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(!outcome.outputLines.contains { $0.contains(": error: ") })
        // With `displays:`, a line per screen follows the summary.
        let summary = try #require(outcome.outputLines.first { $0.hasPrefix("\(path): OK, ") })
        #expect(summary.hasPrefix("\(path): OK, "), "\(summary)")
        #expect(summary.contains(" items, repeat "), "\(summary)")
    }

    @Test func aBrokenConfigListsEveryErrorWithItsPositionAndFails() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("marquee-cli-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("media"), withIntermediateDirectories: true)
        try Data().write(to: folder.appendingPathComponent("media/a.mp4"))
        try Data().write(to: folder.appendingPathComponent("media/b.mp4"))
        try Data("""
            playlist:
              items:
                - url: media/a.mp4
                  start: "1:75"
                - url: media/b.mp4
                  start: 10
                  end: 5
              shuffle: true
            audio:
              volume: loud
            """.utf8).write(to: folder.appendingPathComponent("broken.yaml"))

        let outcome = try MarqueeProcess.run(["check", "broken.yaml"], in: folder)

        #expect(outcome.status == 1)
        #expect(outcome.outputLines == [
            "broken.yaml:4:14: error: bad time '1:75': seconds must be below 60",
            "broken.yaml:7:12: error: end (0:05.000) must be after start (0:10.000)",
            "broken.yaml:8:3: error: unknown key 'shuffle' in playlist (expected 'repeat', 'seed', 'actionAtItemEnd', 'items' or 'schedule')",
            "broken.yaml:10:11: error: expected a number, found 'loud'",
        ])
    }

    @Test func warningsStillPass() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("marquee-cli-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("playlist:\n  repeat: one\n  items: [absent.mp4]\n".utf8)
            .write(to: folder.appendingPathComponent("one.yml"))

        let outcome = try MarqueeProcess.run(["check", "one.yml"], in: folder)

        #expect(outcome.status == 0)
        #expect(outcome.outputLines == [
            "one.yml:3:11: warning: media file not found: \(folder.standardizedFileURL.path)/absent.mp4",
            "one.yml: OK, 1 item, repeat one",
        ])
    }

    /// A `displays:` config counts every screen's items, then says per screen what it shows.
    @Test func aConfigWithScreensSummarisesEveryScreen() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("marquee-cli-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["a.mp4", "b.mp4", "c.mp4"] { try Data().write(to: folder.appendingPathComponent(name)) }
        try Data("""
            displays:
              - name: menu
                connector: HDMI-A-1
                playlist:
                  items: [a.mp4, b.mp4]
              - name: offers
                connector: HDMI-A-2
                audio: {device: "hdmi:CARD=vc4hdmi1,DEV=0"}
                playlist:
                  repeat: shuffle
                  items: [c.mp4]
              - name: window
                connector: DP-1
                mirror: menu
            """.utf8).write(to: folder.appendingPathComponent("screens.yaml"))

        let outcome = try MarqueeProcess.run(["check", "screens.yaml"], in: folder)

        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.outputLines == [
            "screens.yaml: OK, 3 screens (menu, offers, window), 3 items, repeat all/shuffle",
            "  screen menu on HDMI-A-1: 2 items, repeat all, the main screen (keys, control, audio.device)",
            "  screen offers on HDMI-A-2: 1 item, repeat shuffle, sound on hdmi:CARD=vc4hdmi1,DEV=0",
            "  screen window on DP-1: mirrors menu",
        ])
    }

    @Test func aKioskKeypadConfigSaysWhatItsKeysComeTo() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("marquee-cli-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data().write(to: folder.appendingPathComponent("a.mp4"))
        try Data("""
            playlist:
              items: [a.mp4]
            input:
              keymap: none
              keys:
                KEY_KP1: digit1
                KEY_KPENTER: playEnteredItem
                KEY_KPDOT: stop
              stopTimeout: 30
            """.utf8).write(to: folder.appendingPathComponent("kiosk.yaml"))
        try Data("""
            playlist:
              items: [a.mp4]
            input:
              keys:
                KEY_ESC: none
                KEY_STOP: none
              stopTimeout: none
            """.utf8).write(to: folder.appendingPathComponent("unbound.yaml"))

        let kiosk = try MarqueeProcess.run(["check", "kiosk.yaml"], in: folder)
        let unbound = try MarqueeProcess.run(["check", "unbound.yaml"], in: folder)

        #expect(kiosk.status == 0)
        #expect(kiosk.outputLines == ["kiosk.yaml: OK, 1 item, repeat all, 3 keys bound (keymap none), a stop from a key resumes after 30 s"])
        #expect(unbound.status == 0)
        let unboundSummary = try #require(unbound.outputLines.last)
        #expect(unboundSummary.hasPrefix("unbound.yaml: OK, 1 item, repeat all, "))
        #expect(unboundSummary.hasSuffix(" keys bound (keymap default), a stop from a key lasts until something plays"))
    }

    @Test func badKeypadSettingsAreReportedWhereTheyAre() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("marquee-cli-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data().write(to: folder.appendingPathComponent("a.mp4"))
        try Data("""
            playlist:
              items: [a.mp4]
            input:
              keymap: empty
              keys:
                KEY_ESC: nnoe
                KEY_Q: quit
              stopTimeout: soon
            """.utf8).write(to: folder.appendingPathComponent("keys.yaml"))

        let outcome = try MarqueeProcess.run(["check", "keys.yaml"], in: folder)

        #expect(outcome.status == 1)
        #expect(outcome.outputLines == [
            "keys.yaml:4:11: error: unknown keymap 'empty' (expected default or none)",
            "keys.yaml:6:14: error: unknown command 'nnoe'; did you mean 'none'?",
            "keys.yaml:7:12: error: quit cannot be bound to a key (quit with `marquee ctl quit` or SIGTERM)",
            "keys.yaml:8:16: error: bad time 'soon': expected seconds (e.g. 2.5) or [hh:]mm:ss[.fff]",
        ])
    }

    @Test func aMissingFileFails() throws {
        let outcome = try MarqueeProcess.run(["check", "no/such/config.yaml"], in: MarqueeProcess.repositoryRoot())

        #expect(outcome.status == 1)
        #expect(outcome.outputLines == ["no/such/config.yaml:1:1: error: config file not found"])
    }
}
