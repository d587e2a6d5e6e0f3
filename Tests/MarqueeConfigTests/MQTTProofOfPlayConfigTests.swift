import Foundation
import MarqueeConfig
import MarqueeCore
import Testing

/// `mqtt.proofOfPlay: {interval, timeout}`: absent or `false` is none, `true` or an empty mapping
/// the defaults (every 60 s, 30 s for a PUBACK), each value checked with its line and column.
@Suite struct MQTTProofOfPlayConfigTests {
    private func load(_ proofOfPlay: String) throws -> (MQTTConfiguration.ProofOfPlay?, [String]) {
        let (mqtt, diagnostics, _) = try MQTTConfigTests.load("playlist:\n  items: [a.mp4]\nmqtt:\n  topic: marquee/lobby\n" + proofOfPlay)
        return (mqtt?.proofOfPlay, diagnostics.map { $0.replacingOccurrences(of: #"^.*config\.yaml:"#, with: "", options: .regularExpression) })
    }

    @Test func absentOrFalseIsNotOverMQTT() throws {
        let (sending, diagnostics) = try load("")
        #expect(sending == nil && diagnostics.isEmpty, "\(diagnostics)")
        #expect(try load("  proofOfPlay: false\n").0 == nil)
    }

    @Test func trueOrAnEmptyMappingIsTheDefaults() throws {
        for yaml in ["  proofOfPlay: true\n", "  proofOfPlay: {}\n", "  proofOfPlay:\n"] {
            let (sending, diagnostics) = try load(yaml)
            #expect(diagnostics.isEmpty, "\(yaml): \(diagnostics)")
            #expect(sending == MQTTConfiguration.ProofOfPlay(interval: 60, timeout: 30), "\(yaml)")
        }
    }

    @Test func everySettingIsRead() throws {
        let (sending, diagnostics) = try load("  proofOfPlay: {interval: 1, timeout: 300}\n")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(sending == MQTTConfiguration.ProofOfPlay(interval: 1, timeout: 300))
        #expect(try load("  proofOfPlay: {interval: 86400}\n").0 == MQTTConfiguration.ProofOfPlay(interval: 86_400, timeout: 30))
    }

    @Test func badValuesAndUnknownKeysAreErrorsAtTheirPosition() throws {
        let (_, diagnostics) = try load("""
              proofOfPlay:
                interval: 0.5
                timeout: 301
                qos: 2
            """)
        #expect(diagnostics == [
            "6:15: error: interval 0.5 s is out of range (expected 1 to 86400 seconds)",
            "7:14: error: timeout 301 s is out of range (expected 1 to 300 seconds)",
            "8:5: error: unknown key 'qos' in mqtt.proofOfPlay (expected 'interval' or 'timeout')",
        ], "\(diagnostics)")
        #expect(try load("  proofOfPlay: {interval: often}\n").1 == ["5:27: error: expected a number, found 'often'"])
        #expect(try load("  proofOfPlay: always\n").1 == ["5:16: error: expected true or false, found 'always'"])
        #expect(try load("  proof: true\n").1.first?.contains("unknown key 'proof' in mqtt") == true)
    }
}
