import Foundation
import MarqueeConfig
import Testing

/// `metrics:`: absent means no server; empty listens on 127.0.0.1:9150; any address the operator
/// writes, IPv6 in brackets; mistakes carry their line and column.
@Suite struct MetricsConfigTests {
    static func load(_ yaml: String) throws -> (MetricsConfiguration?, [String]) {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("config.yaml", "playlist:\n  items: [a.mp4]\n" + yaml)
        let result = ConfigurationLoader.load(path: path, checkingMediaFiles: false)
        return (result.configuration?.metrics,
                result.diagnostics.map { $0.description.replacingOccurrences(of: #"^.*config\.yaml:"#, with: "", options: .regularExpression) })
    }

    @Test func noSectionIsNoServerAndAnEmptyOneIsTheLoopbackDefault() throws {
        #expect(try Self.load("") == (nil, []))
        let (empty, diagnostics) = try Self.load("metrics:\n")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(empty?.listen == MetricsListenAddress(host: "127.0.0.1", port: 9150))
        #expect(try Self.load("metrics: {}\n").0?.listen.description == "127.0.0.1:9150")
    }

    @Test func anyAddressTheOperatorWritesIsTaken() throws {
        for (written, host, port) in [("0.0.0.0:9150", "0.0.0.0", 9150), ("192.168.1.20:9100", "192.168.1.20", 9100),
                                      ("localhost:9150", "localhost", 9150), (#""[::1]:9150""#, "::1", 9150), (#""[::]:80""#, "::", 80)] {
            let (metrics, diagnostics) = try Self.load("metrics:\n  listen: \(written)\n")
            #expect(diagnostics.isEmpty, "\(written): \(diagnostics)")
            #expect(metrics?.listen == MetricsListenAddress(host: host, port: port), "\(written)")
        }
        #expect(MetricsListenAddress(host: "::1", port: 9150).description == "[::1]:9150")
    }

    @Test func badAddressesAndKeysAreErrorsAtTheirPosition() throws {
        let cases: [(String, String)] = [
            ("9150", "4:11: error: '9150' is not an address to listen on (expected HOST:PORT such as 127.0.0.1:9150, 0.0.0.0:9150 or [::1]:9150)"),
            (":9150", "4:11: error: ':9150' names no host (expected HOST:PORT such as 127.0.0.1:9150, 0.0.0.0:9150 or [::1]:9150; 0.0.0.0 listens on every interface)"),
            ("127.0.0.1:99999", "4:11: error: '127.0.0.1:99999': the port must be a number from 1 to 65535"),
            ("127.0.0.1:http", "4:11: error: '127.0.0.1:http': the port must be a number from 1 to 65535"),
            ("\"::1:9150\"", "4:11: error: '::1:9150' is not an address to listen on (write an IPv6 address in brackets, [::1]:9150)"),
            ("\"[::1]\"", "4:11: error: '[::1]': an IPv6 address in brackets must be followed by :PORT (expected HOST:PORT such as 127.0.0.1:9150, 0.0.0.0:9150 or [::1]:9150)"),
        ]
        for (written, expected) in cases {
            let (metrics, diagnostics) = try Self.load("metrics:\n  listen: \(written)\n")
            #expect(diagnostics == [expected], "\(written)")
            // An error is no config to play: `marquee check` says every one of them.
            #expect(metrics == nil)
        }
        let (_, unknown) = try Self.load("metrics:\n  port: 9150\n")
        #expect(unknown.first?.hasPrefix("4:3: error: unknown key 'port' in metrics") == true, "\(unknown)")
    }
}
