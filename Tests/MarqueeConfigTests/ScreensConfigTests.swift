import Foundation
import MarqueeConfig
import MarqueeCore
import Testing

/// `displays:`: several screens, each with its own connector, mode, look and playlist or mirror.
/// The screen that plays on `audio.device` (audio.screen, else the first with a playlist) is also
/// `display` and `playlist`, so the single-screen paths drive it unchanged.
@Suite struct ScreensConfigTests {
    static let pair = """
        displays:
          - name: left
            connector: HDMI-A-1
            mode: 1920x1080@60
            background: "#102030"
            playlist:
              repeat: all
              items: [a.mp4]
          - name: right
            connector: HDMI-A-2
            rotation: 90
            scaling: fill
            audio: {device: "hw:1,0"}
            playlist:
              items: [b.mp4, c.mp4]
          - name: copy
            connector: DP-1
            mirror: left
        """

    static func load(_ yaml: String) throws -> ConfigurationLoadResult {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("config.yaml", yaml)
        return ConfigurationLoader.load(path: path, checkingMediaFiles: false)
    }

    @Test func everyScreenIsReadWithItsOwnSettings() throws {
        let result = try Self.load(Self.pair)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let configuration = try #require(result.configuration)
        #expect(configuration.screens.map(\.name) == ["left", "right", "copy"])
        let left = configuration.screens[0], right = configuration.screens[1], copy = configuration.screens[2]
        #expect(left.connector == "HDMI-A-1")
        #expect(left.mode == DisplayConfiguration.Mode(parsing: "1920x1080@60"))
        #expect(left.background == RGBColor(parsing: "#102030"))
        #expect(left.playlist?.items.count == 1)
        #expect(right.rotation == Rotation(degrees: 90))
        #expect(right.scaling == .fill)
        #expect(right.audioDevice == "hw:1,0")
        #expect(right.playlist?.items.count == 2)
        #expect(copy.mirrored == "left")
        #expect(copy.playlist == nil)
    }

    @Test func theFirstScreenWithAPlaylistIsTheMainOne() throws {
        let configuration = try #require(try Self.load(Self.pair).configuration)
        #expect(configuration.display.connector == "HDMI-A-1")
        #expect(configuration.display.background == RGBColor(parsing: "#102030"))
        #expect(configuration.playlist.items.count == 1)
    }

    @Test func audioScreenPicksTheMainScreen() throws {
        let configuration = try #require(try Self.load(Self.pair + "\naudio:\n  screen: right\n").configuration)
        #expect(configuration.audio.screen == "right")
        #expect(configuration.display.connector == "HDMI-A-2")
        #expect(configuration.display.scaling == .fill)
        #expect(configuration.playlist.items.count == 2)
        // Its own sound device is the one the main player writes to.
        #expect(configuration.audio.device == "hw:1,0")
    }

    @Test func theSingleScreenConfigHasNoScreens() throws {
        let configuration = try #require(try Self.load("playlist:\n  items: [a.mp4]\ndisplay:\n  connector: HDMI-A-1\n").configuration)
        #expect(configuration.screens.isEmpty)
        #expect(configuration.display.connector == "HDMI-A-1")
    }

    @Test func screensSurviveJSON() throws {
        let configuration = try #require(try Self.load(Self.pair).configuration)
        let data = try JSONEncoder().encode(configuration)
        #expect(try JSONDecoder().decode(MarqueeConfiguration.self, from: data) == configuration)
    }

    static let broken: [BrokenConfigCase] = [
        BrokenConfigCase("duplicate names", """
            displays:
              - name: a
                connector: HDMI-A-1
                playlist: {items: [a.mp4]}
              - name: a
                connector: HDMI-A-2
                playlist: {items: [b.mp4]}
            """, line: 5, column: 11, message: "a second screen is named 'a'; each screen needs its own name"),
        BrokenConfigCase("mirror of an unknown screen", """
            displays:
              - name: a
                connector: HDMI-A-1
                playlist: {items: [a.mp4]}
              - name: b
                connector: HDMI-A-2
                mirror: c
            """, line: 7, column: 13, message: "screen 'b' mirrors an unknown screen 'c' (expected 'a')"),
        BrokenConfigCase("mirror of a mirror", """
            displays:
              - name: a
                connector: HDMI-A-1
                playlist: {items: [a.mp4]}
              - name: b
                connector: HDMI-A-2
                mirror: a
              - name: c
                connector: DP-1
                mirror: b
            """, line: 10, column: 13, message: "screen 'c' mirrors 'b', which is itself a mirror (of 'a'); mirror 'a' instead"),
        BrokenConfigCase("mirror of itself", """
            displays:
              - name: a
                connector: HDMI-A-1
                playlist: {items: [a.mp4]}
              - name: b
                connector: HDMI-A-2
                mirror: b
            """, line: 7, column: 13, message: "screen 'b' cannot mirror itself"),
        BrokenConfigCase("two screens on one connector", """
            displays:
              - name: a
                connector: HDMI-A-1
                playlist: {items: [a.mp4]}
              - name: b
                connector: HDMI-A-1
                mirror: a
            """, line: 6, column: 16, message: "screens 'a' and 'b' are both on connector HDMI-A-1; one screen per connector"),
        BrokenConfigCase("both playlist and mirror", """
            displays:
              - name: a
                connector: HDMI-A-1
                playlist: {items: [a.mp4]}
              - name: b
                connector: HDMI-A-2
                playlist: {items: [b.mp4]}
                mirror: a
            """, line: 8, column: 5, message: "screen 'b' has both 'playlist' and 'mirror'; give one"),
        BrokenConfigCase("neither playlist nor mirror", """
            displays:
              - name: a
                connector: HDMI-A-1
                playlist: {items: [a.mp4]}
              - name: b
                connector: HDMI-A-2
            """, line: 5, column: 5, message: "screen 'b' has neither 'playlist' nor 'mirror: NAME'; give one"),
        BrokenConfigCase("no connector", """
            displays:
              - name: a
                playlist: {items: [a.mp4]}
            """, line: 2, column: 5, message: "screen 'a' is missing 'connector'"),
        BrokenConfigCase("connector auto", """
            displays:
              - name: a
                connector: auto
                playlist: {items: [a.mp4]}
            """, line: 3, column: 16, message: "connector auto is ambiguous with several screens"),
        BrokenConfigCase("unknown key in a screen", """
            displays:
              - name: a
                connector: HDMI-A-1
                rotaton: 90
                playlist: {items: [a.mp4]}
            """, line: 4, column: 5, message: "unknown key 'rotaton' in a screen of displays; did you mean 'rotation'?"),
        BrokenConfigCase("a top-level playlist beside displays", """
            playlist: {items: [x.mp4]}
            displays:
              - name: a
                connector: HDMI-A-1
                playlist: {items: [a.mp4]}
            """, line: 1, column: 1, message: "with 'displays', each screen has its own 'playlist'"),
        BrokenConfigCase("a per-screen key left in display", """
            display:
              output: drm
              connector: HDMI-A-1
            displays:
              - name: a
                connector: HDMI-A-1
                playlist: {items: [a.mp4]}
            """, line: 3, column: 3, message: "display.connector does not apply with 'displays'; give each screen its own 'connector'"),
        BrokenConfigCase("audio.screen unknown", """
            displays:
              - name: a
                connector: HDMI-A-1
                playlist: {items: [a.mp4]}
            audio:
              screen: b
            """, line: 6, column: 11, message: "audio.screen names an unknown screen 'b' (expected 'a')"),
        BrokenConfigCase("audio.screen a mirror", """
            displays:
              - name: a
                connector: HDMI-A-1
                playlist: {items: [a.mp4]}
              - name: b
                connector: HDMI-A-2
                mirror: a
            audio:
              screen: b
            """, line: 9, column: 11, message: "audio.screen 'b' mirrors another screen"),
        BrokenConfigCase("audio device on a mirror", """
            displays:
              - name: a
                connector: HDMI-A-1
                playlist: {items: [a.mp4]}
              - name: b
                connector: HDMI-A-2
                mirror: a
                audio: {device: "hw:1"}
            """, line: 8, column: 5, message: "screen 'b' mirrors a picture and has no sound of its own"),
        BrokenConfigCase("audio.screen without displays", """
            playlist: {items: [a.mp4]}
            audio:
              screen: a
            """, line: 2, column: 1, message: "audio.screen 'a' names a screen, but the config has no 'displays' list"),
        BrokenConfigCase("displays empty", """
            displays: []
            """, line: 1, column: 11, message: "'displays' lists no screen"),
    ]

    @Test(arguments: broken)
    func eachMistakeIsOneErrorWhereItIs(_ broken: BrokenConfigCase) throws {
        try broken.expectReportedWhereItIs()
    }
}
