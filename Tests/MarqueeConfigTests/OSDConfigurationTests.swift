import MarqueeConfig
import MarqueeCore
import Testing

/// `osd:` from a config: every key read, the defaults when absent, and each bad value reported at
/// its line and column while the rest of the config is still read.
@Suite struct OSDConfigurationTests {
    static func load(_ osd: String, checkingFiles: Bool = false) -> ConfigurationLoadResult {
        ConfigurationLoader.load(text: "playlist:\n  items:\n    - url: a.mp4\nosd:\n" + osd, format: .yaml,
                                 path: "/srv/kiosk/kiosk.yaml", checkingMediaFiles: checkingFiles)
    }

    @Test func everyKeyIsRead() throws {
        let result = Self.load("""
              enabled: false
              duration: 1.5
              position: top
              scale: 2
              show: [title, time, progress]
              statusCard: false
              font: fonts/Sign.ttf
            """)
        let settings = try #require(result.configuration).osd.settings
        #expect(!settings.enabled && !settings.statusCard)
        #expect(settings.duration == MediaTime(3, per: 2))
        #expect(settings.position == .top && settings.scale == 2)
        #expect(settings.show == [.title, .time, .progress])
        #expect(settings.font == "/srv/kiosk/fonts/Sign.ttf")
    }

    @Test func absentItShowsEverythingAtTheBottomForThreeSeconds() throws {
        let result = ConfigurationLoader.load(text: "playlist:\n  items:\n    - url: a.mp4\n", format: .yaml,
                                              path: "/srv/kiosk/kiosk.yaml", checkingMediaFiles: false)
        let settings = try #require(result.configuration).osd.settings
        #expect(settings == OSDSettings())
        #expect(settings.enabled && settings.statusCard && settings.position == .bottom)
        #expect(settings.duration == MediaTime(seconds: 3) && settings.show == Set(OSDElement.allCases))
    }

    @Test(arguments: [
        ("  position: left\n", "kiosk.yaml:5:13: error: unknown osd position 'left'"),
        ("  scale: 9\n", "kiosk.yaml:5:10: error: osd scale must be from 0.25 to 4, found 9.0"),
        ("  duration: 0\n", "kiosk.yaml:5:13: error: osd duration must be more than 0 and at most 1 hour"),
        ("  show: [title, clock]\n", "kiosk.yaml:5:17: error: unknown osd element 'clock'"),
        ("  show: title\n", "kiosk.yaml:5:9: error: expected a list of osd elements"),
        ("  colour: red\n", "kiosk.yaml:5:3: error: unknown key 'colour' in osd"),
    ])
    func aBadValueIsReportedWhereItIs(_ yaml: String, _ expected: String) {
        let result = Self.load(yaml)
        #expect(result.errors.contains { $0.description.contains(expected) }, "\(result.errors.map(\.description))")
    }

    @Test func aFontThatIsNotThereIsAnErrorWhenFilesAreChecked() {
        let result = Self.load("  font: /no/such/font.ttf\n", checkingFiles: true)
        #expect(result.errors.contains { $0.description.contains("5:9: error: osd font /no/such/font.ttf: no such file") },
                "\(result.errors.map(\.description))")
    }
}
