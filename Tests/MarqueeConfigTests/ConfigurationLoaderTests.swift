import Foundation
import MarqueeConfig
import MarqueeCore
import Testing

@Suite struct ConfigurationLoaderTests {
    @Test func readsEverySectionOfAFullConfig() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("full.yaml", """
            playlist:
              repeat: shuffle
              seed: 7
              items:
                - url: media/intro.mp4
                  start: 2.5
                  end: "0:30"
                  scaling: aspectFill
                  title: Intro
                - url: https://example.net/live/index.m3u8
            display:
              output: drm:/dev/dri/card1
              connector: HDMI-A-1
              mode: 1920x1080@59.94
              rotation: 270
              scaling: fill
              background: "#FF8000"
              modesetting: legacy
            log:
              level: warning
            audio:
              device: hw:1,0
              volume: 0.25
              bufferTime: 0.2
              periodTime: 0.05
            input:
              devices: [/dev/input/event3, Flirc]
              grab: false
            """)

        let result = ConfigurationLoader.load(path: path, checkingMediaFiles: false)

        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let configuration = try #require(result.configuration)
        #expect(configuration.playlist.repeat == .shuffle)
        #expect(configuration.playlist.seed == 7)
        #expect(configuration.playlist.items == [
            PlaylistItemConfiguration(location: .file(path: folder.path("media/intro.mp4")),
                                      start: MediaTime(5, per: 2), end: MediaTime(seconds: 30),
                                      scaling: .aspectFill, title: "Intro"),
            PlaylistItemConfiguration(location: .remote(URL(string: "https://example.net/live/index.m3u8")!)),
        ])
        #expect(configuration.display == DisplayConfiguration(
            output: .drm(device: "/dev/dri/card1"), connector: "HDMI-A-1",
            mode: .size(.init(width: 1920, height: 1080), refreshRate: 59.94), rotation: .clockwise270,
            scaling: .fill, background: .init(red: 0xFF, green: 0x80, blue: 0x00), modesetting: .legacy))
        #expect(configuration.audio == AudioConfiguration(device: "hw:1,0", volume: 0.25,
                                                          bufferTime: 0.2, periodTime: 0.05))
        #expect(configuration.input.devices == .list(["/dev/input/event3", "Flirc"]))
        #expect(configuration.input.grab == false)
        #expect(configuration.log.level == .warning)
        #expect(configuration.source == URL(fileURLWithPath: path).standardizedFileURL)
    }

    @Test func maxImagePixelsIsASizeOrAPixelCount() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let size = try folder.write("size.yaml", "playlist:\n  items: [a.mp4]\ndisplay:\n  maxImagePixels: 4096x4096\n")
        let count = try folder.write("count.yaml", "playlist:\n  items: [a.mp4]\ndisplay:\n  maxImagePixels: 16777216\n")
        let json = try folder.write("count.json", "{\"playlist\": {\"items\": [\"a.mp4\"]}, \"display\": {\"maxImagePixels\": 16777216}}")

        let bySize = try #require(ConfigurationLoader.load(path: size, checkingMediaFiles: false).configuration)
        #expect(bySize.display.maxImagePixels == ImagePixelLimit(width: 4096, height: 4096))
        for path in [count, json] {
            let byCount = try #require(ConfigurationLoader.load(path: path, checkingMediaFiles: false).configuration)
            #expect(byCount.display.maxImagePixels.pixelCount == 16_777_216, "\(path)")
        }
    }

    @Test func leftOutSettingsTakeTheirDefaults() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("minimal.yaml", "playlist:\n  items: [a.mp4]\n")

        let configuration = try #require(ConfigurationLoader.load(path: path, checkingMediaFiles: false).configuration)

        #expect(configuration.playlist.repeat == .all)
        #expect(configuration.playlist.seed == nil)
        #expect(configuration.display == DisplayConfiguration(output: .auto, connector: "auto", mode: .preferred,
                                                              rotation: .none, scaling: .aspectFit, background: .black))
        #expect(configuration.display.maxImagePixels == ImagePixelLimit(width: 8192, height: 8192))
        #expect(configuration.audio == AudioConfiguration(device: "default", volume: 1.0))
        #expect(configuration.input == InputConfiguration(devices: .auto, grab: true, keyOverrides: [:]))
        #expect(configuration.input.keyMap == KeyMap.default)
        #expect(configuration.input.baseKeyMap == .default)
        #expect(configuration.input.stopTimeout == MediaTime(seconds: 60))
    }

    @Test func theNetworkReadAheadIsReadAndDefaultsToTenSeconds() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let set = try folder.write("network.yaml", "playlist:\n  items: [a.mp4]\nnetwork:\n  readAhead: 2.5\n")
        let unset = try folder.write("plain.yaml", "playlist:\n  items: [a.mp4]\n")

        let configured = try #require(ConfigurationLoader.load(path: set, checkingMediaFiles: false).configuration)
        let defaulted = try #require(ConfigurationLoader.load(path: unset, checkingMediaFiles: false).configuration)

        #expect(configured.network.readAhead == 2.5)
        #expect(configured.network.readAheadDuration == .milliseconds(2500))
        #expect(defaulted.network == NetworkConfiguration(readAhead: 10))
    }

    @Test func timesAreParsedFromTheTextExactly() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("times.yaml", """
            playlist:
              items:
                - url: a.mp4
                  start: "0:01.1"
                  end: "0:01.3"
                - url: b.mp4
                  start: 0.1
                  duration: 1:02:03.250
            """)

        let items = try #require(ConfigurationLoader.load(path: path, checkingMediaFiles: false).configuration).playlist.items

        #expect(items[0].start == MediaTime(11, per: 10))
        #expect(items[0].end == MediaTime(13, per: 10))
        #expect(items[1].start == MediaTime(1, per: 10))
        #expect(items[1].duration == MediaTime(3_723_250, per: 1000))
        #expect(items[1].effectiveEnd == MediaTime(3_723_350, per: 1000))
    }

    @Test func relativePathsResolveAgainstTheConfigsFolderNotTheWorkingDirectory() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("site/configs/lobby.yaml", """
            playlist:
              items:
                - url: media/intro.mp4
                - url: ../shared/logo.png
                - url: ./clip with spaces.mp4
                - url: /srv/media/absolute.mp4
                - url: file:///srv/media/from%20url.mp4
            """)
        #expect(FileManager.default.currentDirectoryPath != folder.path("site/configs"))

        let items = try #require(ConfigurationLoader.load(path: path, checkingMediaFiles: false).configuration).playlist.items

        #expect(items.map(\.location) == [
            .file(path: folder.path("site/configs/media/intro.mp4")),
            .file(path: folder.path("site/shared/logo.png")),
            .file(path: folder.path("site/configs/clip with spaces.mp4")),
            .file(path: "/srv/media/absolute.mp4"),
            .file(path: "/srv/media/from url.mp4"),
        ])
    }

    @Test func keyOverridesAreMergedOverTheDefaultMap() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("keys.yaml", """
            playlist:
              items: [a.mp4]
            input:
              keys:
                KEY_KP5: togglePlayPause
                kpplus: next
                KEY_F1: cycleRepeatMode
            """)

        let input = try #require(ConfigurationLoader.load(path: path, checkingMediaFiles: false).configuration).input
        let keyMap = input.keyMap

        #expect(input.keyOverrides.count == 3)
        #expect(keyMap.command(for: KeyName("KEY_KP5")!) == .togglePlayPause)   // default: digit5
        #expect(keyMap.command(for: KeyName("KEY_KPPLUS")!) == .next)           // default: volumeUp
        #expect(keyMap.command(for: KeyName("KEY_F1")!) == .cycleRepeatMode)    // not in the default map
        #expect(keyMap.command(for: KeyName("KEY_KP1")!) == .digit1)            // untouched default
        #expect(keyMap.command(for: KeyName("KEY_PLAYPAUSE")!) == .togglePlayPause)
        #expect(keyMap != KeyMap.default)
    }

    @Test func missingMediaIsOnlyAWarning() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("media/present.mp4", "")
        let path = try folder.write("config.yaml", """
            playlist:
              items:
                - url: media/present.mp4
                - url: media/absent.mp4
                - url: https://example.net/remote.mp4
            """)

        let result = ConfigurationLoader.load(path: path)

        #expect(result.configuration != nil)
        #expect(!result.hasErrors)
        #expect(result.diagnostics == [
            Diagnostic(severity: .warning, file: path, line: 4, column: 12,
                       message: "media file not found: \(folder.path("media/absent.mp4"))"),
        ])
    }

    @Test func everyProblemInAFileIsReportedInFileOrder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("many.yaml", """
            playlist:
              repeat: sometimes
              items:
                - url: a.mp4
                  start: soon
                - url: b.mp4
                  start: 20
                  end: 10
                - title: no url
            display:
              rotation: 45
              colour: "#000000"
            audio:
              volume: 2
            input:
              keys:
                KEY_NOPE: jump
            """)

        let result = ConfigurationLoader.load(path: path, checkingMediaFiles: false)

        #expect(result.configuration == nil)
        #expect(result.diagnostics.map { "\($0.line):\($0.column)" } == [
            "2:11", "5:14", "8:12", "9:7", "11:13", "12:3", "14:11", "17:5", "17:15",
        ])
        #expect(result.diagnostics.allSatisfy { $0.severity == .error })
    }

    @Test func diagnosticsPrintLikeCompilerMessages() {
        let error = Diagnostic(severity: .error, file: "Config/demo.yaml", line: 7, column: 12, message: "bad time 'x'")
        let warning = Diagnostic(severity: .warning, file: "a.m3u", line: 1, column: 1, message: "media file not found: /a")

        #expect(error.description == "Config/demo.yaml:7:12: error: bad time 'x'")
        #expect(warning.description == "a.m3u:1:1: warning: media file not found: /a")
    }

    @Test func fileProblemsAreReportedAtTheStart() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let empty = try folder.write("empty.yaml", "# nothing but a comment\n")
        let missing = folder.path("absent.yaml")

        let emptyResult = ConfigurationLoader.load(path: empty)
        let missingResult = ConfigurationLoader.load(path: missing)

        #expect(emptyResult.diagnostics.map(\.description) == ["\(empty):1:1: error: the config file is empty"])
        #expect(missingResult.diagnostics.map(\.description) == ["\(missing):1:1: error: config file not found"])
        #expect(emptyResult.configuration == nil && missingResult.configuration == nil)
    }

    @Test func nestedJSONWithTabsIsRead() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("config.json", """
            {
            \t"playlist": {
            \t\t"repeat": "one",
            \t\t"items": [
            \t\t\t{"url": "a.mp4", "start": 1.5, "end": "0:03", "title": "A \\"quoted\\" title\\/slash"},
            \t\t\t{"url":"b.png","duration":10}
            \t\t]
            \t},
            \t"display": {"output": "headless:1280x720", "mode": "1280x720@50", "background": "#abcdef"},
            \t"audio": {"volume": 0},
            \t"input": {"devices": "none", "grab": true, "keys": {"KEY_SPACE": "pause"}}
            }
            """)

        let result = ConfigurationLoader.load(path: path, checkingMediaFiles: false)

        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let configuration = try #require(result.configuration)
        #expect(configuration.playlist.repeat == .one)
        #expect(configuration.playlist.items.count == 2)
        #expect(configuration.playlist.items[0].start == MediaTime(3, per: 2))
        #expect(configuration.playlist.items[0].end == MediaTime(seconds: 3))
        #expect(configuration.playlist.items[0].title == "A \"quoted\" title/slash")
        #expect(configuration.playlist.items[1].duration == MediaTime(seconds: 10))
        #expect(configuration.display.output == .headless(size: .init(width: 1280, height: 720)))
        #expect(configuration.display.mode == .size(.init(width: 1280, height: 720), refreshRate: 50))
        #expect(configuration.display.background == .init(red: 0xAB, green: 0xCD, blue: 0xEF))
        #expect(configuration.audio.volume == 0)
        #expect(configuration.input.devices == InputConfiguration.Devices.none)
        #expect(configuration.input.keyMap.command(for: KeyName("KEY_SPACE")!) == .pause)
    }

    @Test func yamlAnchorsAndMergeKeysShareItemSettings() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("anchors.yaml", """
            playlist:
              items:
                - &still {url: a.png, duration: 8, scaling: aspectFill}
                - <<: *still
                  url: b.png
            """)

        let items = try #require(ConfigurationLoader.load(path: path, checkingMediaFiles: false).configuration).playlist.items

        #expect(items.map(\.location) == [.file(path: folder.path("a.png")), .file(path: folder.path("b.png"))])
        #expect(items.map(\.duration) == [MediaTime(seconds: 8), MediaTime(seconds: 8)])
        #expect(items.map(\.scaling) == [.aspectFill, .aspectFill])
    }

    @Test func noneUnbindsAKeyOfTheDefaultMap() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("unbind.yaml", """
            playlist:
              items: [a.mp4]
            input:
              keys:
                KEY_ESC: none
                stopcd: None
                KEY_KP5: togglePlayPause
            """)

        let result = ConfigurationLoader.load(path: path, checkingMediaFiles: false)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let input = try #require(result.configuration).input

        #expect(input.keyOverrides == [KeyName("KEY_ESC")!: nil, KeyName("KEY_STOPCD")!: nil, KeyName("KEY_KP5")!: .togglePlayPause])
        #expect(input.keyMap.command(for: KeyName("KEY_ESC")!) == nil)
        #expect(input.keyMap.command(for: KeyName("KEY_STOPCD")!) == nil)
        #expect(input.keyMap.command(for: KeyName("KEY_STOP")!) == .stop)         // untouched default
        #expect(input.keyMap.command(for: KeyName("KEY_KP5")!) == .togglePlayPause)
        #expect(input.keyMap.boundCodes.count == KeyMap.default.boundCodes.count - 2)
    }

    @Test func keymapNoneBindsOnlyTheListedKeys() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("kiosk.yaml", """
            playlist:
              items: [a.mp4, b.mp4]
            input:
              keymap: none
              keys:
                KEY_KP1: digit1
                KEY_KP2: digit2
                KEY_KPENTER: playEnteredItem
            """)

        let result = ConfigurationLoader.load(path: path, checkingMediaFiles: false)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let input = try #require(result.configuration).input

        #expect(input.baseKeyMap == .none)
        #expect(input.keyMap == KeyMap([KeyName("KEY_KP1")!: .digit1, KeyName("KEY_KP2")!: .digit2,
                                        KeyName("KEY_KPENTER")!: .playEnteredItem]))
        #expect(input.keyMap.command(for: KeyName("KEY_ESC")!) == nil)
        #expect(input.keyMap.command(for: KeyName("KEY_STOP")!) == nil)
    }

    @Test func keymapNoneWithoutKeysBindsNothingAndDefaultIsTheDefault() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let none = try folder.write("none.yaml", "playlist:\n  items: [a.mp4]\ninput:\n  keymap: NONE\n")
        let standard = try folder.write("default.yaml", "playlist:\n  items: [a.mp4]\ninput:\n  keymap: default\n")

        #expect(try #require(ConfigurationLoader.load(path: none, checkingMediaFiles: false).configuration).input.keyMap == .empty)
        #expect(try #require(ConfigurationLoader.load(path: standard, checkingMediaFiles: false).configuration).input.keyMap == .default)
    }

    @Test func unbindingAKeyTheMapDoesNotBindIsAWarning() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("pointless.yaml", """
            playlist:
              items: [a.mp4]
            input:
              keymap: none
              keys:
                KEY_ESC: none
            """)

        let result = ConfigurationLoader.load(path: path, checkingMediaFiles: false)
        #expect(!result.hasErrors)
        #expect(result.diagnostics.map(\.description) == [
            "\(path):6:14: warning: KEY_ESC is not bound by the empty (keymap: none) map; none changes nothing",
        ])
    }

    @Test(arguments: [
        ("90", MediaTime(seconds: 90) as MediaTime?), ("1:30", MediaTime(seconds: 90)), ("2.5", MediaTime(5, per: 2)),
        ("none", nil), ("None", nil), ("0", nil), ("\"0:00\"", nil),
    ])
    func theStopTimeoutIsATimeOrNone(text: String, expected: MediaTime?) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("stop.yaml", "playlist:\n  items: [a.mp4]\ninput:\n  stopTimeout: \(text)\n")

        let result = ConfigurationLoader.load(path: path, checkingMediaFiles: false)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(try #require(result.configuration).input.stopTimeout == expected)
    }

    @Test func keymapKeysAndStopTimeoutSurviveJSON() throws {
        let input = InputConfiguration(baseKeyMap: .none, keyOverrides: [KeyName("KEY_ESC")!: nil, KeyName("KEY_KP1")!: .digit1],
                                       stopTimeout: MediaTime(seconds: 30))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = try #require(String(data: try encoder.encode(input), encoding: .utf8))

        #expect(json.contains(#""keymap":"none""#))
        #expect(json.contains(#""keys":{"KEY_ESC":"none","KEY_KP1":"digit1"}"#))
        #expect(json.contains(#""stopTimeout":"30""#))
        #expect(try JSONDecoder().decode(InputConfiguration.self, from: Data(json.utf8)) == input)

        let never = InputConfiguration(stopTimeout: nil)
        #expect(try JSONDecoder().decode(InputConfiguration.self, from: try encoder.encode(never)) == never)
    }
}
