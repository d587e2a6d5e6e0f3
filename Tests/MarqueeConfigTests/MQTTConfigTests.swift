import Foundation
import MarqueeConfig
import MarqueeCore
import Testing

/// `mqtt:`: absent means no MQTT; the URL gives host, port and TLS; the topic defaults to
/// `marquee/HOSTNAME`; files are relative to the config; mistakes carry their line and column.
@Suite struct MQTTConfigTests {
    static func load(_ yaml: String) throws -> (MQTTConfiguration?, [String], String) {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("config.yaml", yaml)
        let result = ConfigurationLoader.load(path: path, checkingMediaFiles: false)
        return (result.configuration?.mqtt, result.diagnostics.map(\.description),
                URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path)
    }

    @Test func noSectionIsNoMQTT() throws {
        let (mqtt, diagnostics, _) = try Self.load("playlist:\n  items: [a.mp4]\n")
        #expect(mqtt == nil)
        #expect(diagnostics.isEmpty)
    }

    @Test func anEmptySectionIsTheLocalBrokerUnderTheHostName() throws {
        let (mqtt, diagnostics, _) = try Self.load("playlist:\n  items: [a.mp4]\nmqtt: {}\n")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(mqtt?.host == "127.0.0.1" && mqtt?.port == 1883 && mqtt?.usesTLS == false)
        #expect(mqtt?.topic == MQTTConfiguration.defaultTopic())
        #expect(MQTTConfiguration.defaultTopic().hasPrefix("marquee/") && MQTTConfiguration.defaultTopic().count > 8)
        #expect(mqtt?.events == false && mqtt?.credentials == nil)
    }

    @Test func everySettingIsRead() throws {
        let (mqtt, diagnostics, folder) = try Self.load("""
            playlist:
              items: [a.mp4]
            mqtt:
              url: mqtts://broker.example
              topic: fleet/lobby
              credentials: secrets/mqtt.txt
              events: true
              tls: {caFile: ca.pem}
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(mqtt?.host == "broker.example" && mqtt?.port == 8883 && mqtt?.usesTLS == true)
        #expect(mqtt?.topic == "fleet/lobby" && mqtt?.events == true)
        #expect(mqtt?.credentials == "\(folder)/secrets/mqtt.txt")
        #expect(mqtt?.caFile == "\(folder)/ca.pem")
    }

    @Test func badValuesAreErrorsAtTheirPosition() throws {
        let (_, diagnostics, _) = try Self.load("""
            playlist:
              items: [a.mp4]
            mqtt:
              url: mqtt://broker:99999
              topic: /lobby
              tls: {caFile: ""}
              retain: true
            """)
        #expect(diagnostics.map { $0.replacingOccurrences(of: #"^.*config\.yaml:"#, with: "", options: .regularExpression) } == [
            "4:8: error: port 99999 is out of range (1 to 65535)",
            "5:10: error: topic '/lobby' must not be empty or begin or end with '/'",
            "6:17: error: expected a file of CA certificates (PEM), found an empty string",
            "7:3: error: unknown key 'retain' in mqtt (expected 'url', 'topic', 'credentials', 'events', 'tls', 'allow', 'screenshots' or 'proofOfPlay')",
        ], "\(diagnostics)")
    }

    @Test func allowGrantsTheHighestRoleListedAndDefaultsToControl() throws {
        func role(_ yaml: String) throws -> (ControlRole?, [String]) {
            let (mqtt, diagnostics, _) = try Self.load("playlist:\n  items: [a.mp4]\nmqtt:\n  url: mqtt://127.0.0.1:1883\n" + yaml)
            return (mqtt?.role, diagnostics)
        }
        #expect(try role("").0 == .control)
        #expect(try role("  allow: [admin]\n").0 == .admin)
        #expect(try role("  allow: observe\n").0 == .observe)
        #expect(try role("  allow: [observe, admin]\n").0 == .admin)
        let (bad, diagnostics) = try role("  allow: [root]\n")
        #expect(bad == nil)
        #expect(diagnostics.first?.contains("5:11: error: unknown control role 'root'") == true, "\(diagnostics)")
    }
}
