import Foundation
import MarqueeConfig
import Testing

/// `display.cec`: `auto` (the default), `off`, or a CEC device path; anything else is one error
/// at the value, with its line and column, as `marquee check` prints it.
@Suite struct CECConfigTests {
    static func cec(_ yaml: String, name: String = "config.yaml") throws -> DisplayConfiguration.CEC? {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write(name, yaml)
        let result = ConfigurationLoader.load(path: path, checkingMediaFiles: false)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        return result.configuration?.display.cec
    }

    @Test func itIsAutoWhenLeftOut() throws {
        #expect(try Self.cec("playlist:\n  items: [a.mp4]\n") == .auto)
        #expect(DisplayConfiguration().cec == .auto)
    }

    @Test func autoOffAndADevicePathAreRead() throws {
        #expect(try Self.cec("playlist:\n  items: [a.mp4]\ndisplay:\n  cec: auto\n") == .auto)
        // Unquoted `off` is YAML 1.1's false to some readers; here it is the word.
        #expect(try Self.cec("playlist:\n  items: [a.mp4]\ndisplay:\n  cec: off\n") == .off)
        #expect(try Self.cec("playlist:\n  items: [a.mp4]\ndisplay:\n  cec: \"OFF\"\n") == .off)
        #expect(try Self.cec("playlist:\n  items: [a.mp4]\ndisplay:\n  cec: /dev/cec1\n") == .device(path: "/dev/cec1"))
        #expect(try Self.cec("{\"playlist\": {\"items\": [\"a.mp4\"]}, \"display\": {\"cec\": \"/dev/cec0\"}}", name: "c.json")
            == .device(path: "/dev/cec0"))
    }

    @Test func itIsWrittenBackAsItIsSpelt() throws {
        for cec in [DisplayConfiguration.CEC.auto, .off, .device(path: "/dev/cec3")] {
            var display = DisplayConfiguration()
            display.cec = cec
            let data = try JSONEncoder().encode(display)
            #expect(String(decoding: data, as: UTF8.self).contains("\"cec\":\"\(cec.description.replacingOccurrences(of: "/", with: "\\/"))\""))
            #expect(try JSONDecoder().decode(DisplayConfiguration.self, from: data) == display)
        }
    }

    static let broken: [BrokenConfigCase] = [
        BrokenConfigCase("a word that is not a setting", """
            playlist:
              items: [a.mp4]
            display:
              cec: yes please
            """, line: 4, column: 8, message: "bad cec setting 'yes please' (expected auto, off or a device path such as /dev/cec0)"),
        BrokenConfigCase("a relative device path", """
            playlist:
              items: [a.mp4]
            display:
              output: drm
              cec: cec1
            """, line: 5, column: 8, message: "bad cec setting 'cec1'"),
        BrokenConfigCase("a list instead of one adapter", """
            playlist:
              items: [a.mp4]
            display:
              cec: [/dev/cec0, /dev/cec1]
            """, line: 4, column: 8, message: "expected auto, off or a CEC device path such as /dev/cec0, found a list"),
        BrokenConfigCase("nothing", """
            playlist:
              items: [a.mp4]
            display:
              cec:
            """, line: 4, column: 7, message: "expected auto, off or a CEC device path such as /dev/cec0, found nothing"),
        BrokenConfigCase("misspelt key", """
            playlist:
              items: [a.mp4]
            display:
              ce: auto
            """, line: 4, column: 3, message: "did you mean 'cec'?"),
        BrokenConfigCase("in JSON too", fileName: "config.json", """
            {"playlist": {"items": ["a.mp4"]},
             "display": {"cec": "hdmi"}}
            """, line: 2, column: 21, message: "bad cec setting 'hdmi'"),
    ]

    @Test(arguments: broken)
    func aBadSettingIsReportedWhereItIs(_ broken: BrokenConfigCase) throws {
        try broken.expectReportedWhereItIs()
    }
}
