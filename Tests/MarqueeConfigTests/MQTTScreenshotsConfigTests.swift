import Foundation
import MarqueeConfig
import MarqueeCore
import Testing

/// `mqtt.screenshots: {every, width, format}`: absent is none, `true` or an empty mapping the
/// defaults (every 300 s, 480 pixels, JPEG), each value checked with its line and column.
@Suite struct MQTTScreenshotsConfigTests {
    private func load(_ screenshots: String) throws -> (MQTTConfiguration.Screenshots?, [String]) {
        let (mqtt, diagnostics, _) = try MQTTConfigTests.load("playlist:\n  items: [a.mp4]\nmqtt:\n  topic: marquee/lobby\n" + screenshots)
        return (mqtt?.screenshots, diagnostics.map { $0.replacingOccurrences(of: #"^.*config\.yaml:"#, with: "", options: .regularExpression) })
    }

    @Test func absentIsNoScreenshots() throws {
        let (screenshots, diagnostics) = try load("")
        #expect(screenshots == nil && diagnostics.isEmpty, "\(diagnostics)")
        #expect(try load("  screenshots: false\n").0 == nil)
    }

    @Test func trueOrAnEmptyMappingIsTheDefaults() throws {
        for yaml in ["  screenshots: true\n", "  screenshots: {}\n", "  screenshots:\n"] {
            let (screenshots, diagnostics) = try load(yaml)
            #expect(diagnostics.isEmpty, "\(yaml): \(diagnostics)")
            #expect(screenshots == MQTTConfiguration.Screenshots(every: 300, width: 480, format: .jpeg), "\(yaml)")
        }
    }

    @Test func everySettingIsRead() throws {
        let (screenshots, diagnostics) = try load("  screenshots: {every: 60, width: 320, format: png}\n")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(screenshots == MQTTConfiguration.Screenshots(every: 60, width: 320, format: .png))
        #expect(try load("  screenshots: {every: 10, width: 3840, format: JPEG}\n").0 == MQTTConfiguration.Screenshots(every: 10, width: 3840, format: .jpeg))
        #expect(try load("  screenshots: {every: 86400, width: 64}\n").0 == MQTTConfiguration.Screenshots(every: 86_400, width: 64, format: .jpeg))
    }

    @Test func badValuesAndUnknownKeysAreErrorsAtTheirPosition() throws {
        let (_, diagnostics) = try load("""
              screenshots:
                every: 5
                width: 4000
                format: gif
                size: 480
            """)
        #expect(diagnostics == [
            "6:12: error: every 5 s is out of range (expected 10 to 86400 seconds)",
            "7:12: error: width 4000 is out of range (expected 64 to 3840 pixels)",
            "8:13: error: unknown image format 'gif' (expected jpeg or png)",
            "9:5: error: unknown key 'size' in mqtt.screenshots (expected 'every', 'width' or 'format')",
        ], "\(diagnostics)")
        let (_, more) = try load("  screenshots: {every: 86401, width: 63.5, format: 3}\n")
        #expect(more == [
            "5:24: error: every 86401 s is out of range (expected 10 to 86400 seconds)",
            "5:38: error: expected a whole number, found '63.5'",
            "5:52: error: unknown image format '3' (expected jpeg or png)",
        ], "\(more)")
        #expect(try load("  screenshots: often\n").1 == ["5:16: error: expected true or false, found 'often'"])
    }
}
