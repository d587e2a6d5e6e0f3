import Foundation
import MarqueeConfig
import Testing

/// `source:` (a bootstrap whose playlist comes from a server), `cache:`, and an item's `stream` and
/// `sha256`; a fetched config's relative urls are the server's.
@Suite struct FleetConfigTests {
    static func load(_ yaml: String) throws -> (MarqueeConfiguration?, [String], String) {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("config.yaml", yaml)
        let result = ConfigurationLoader.load(path: path, checkingMediaFiles: false)
        let diagnostics = result.diagnostics.map { $0.description.replacingOccurrences(of: #"^.*config\.yaml:"#, with: "", options: .regularExpression) }
        return (result.configuration, diagnostics, URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path)
    }

    @Test func aBootstrapNeedsNoPlaylist() throws {
        let (config, diagnostics, folder) = try Self.load("""
            source:
              url: https://cms.example/screens/lobby.yaml
              interval: 30
              credentials: cms.txt
              caFile: ca.pem
            cache: {dir: /data/cache, maxBytes: 2G, maxRate: 500K/s, downloads: 1}
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(config?.remote?.url.absoluteString == "https://cms.example/screens/lobby.yaml")
        #expect(config?.remote?.interval == 30)
        #expect(config?.remote?.credentials == "\(folder)/cms.txt" && config?.remote?.caFile == "\(folder)/ca.pem")
        #expect(config?.playlist.items.isEmpty == true)
        #expect(config?.cache == CacheConfiguration(directory: "/data/cache", maxBytes: 2 << 30, maxRate: 500 << 10, downloads: 1))
    }

    @Test func aSourceCanBeJustItsURL() throws {
        let (config, diagnostics, _) = try Self.load("source: http://127.0.0.1:8080/a.yaml\n")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(config?.remote == RemoteSourceConfiguration(url: URL(string: "http://127.0.0.1:8080/a.yaml")!))
        #expect(config?.cache.resolvedDirectory(environment: [:]) == "/var/cache/marquee")
        #expect(config?.cache.resolvedDirectory(environment: ["CACHE_DIRECTORY": "/var/cache/m2"]) == "/var/cache/m2")
    }

    @Test func badFleetValuesAreErrorsAtTheirPosition() throws {
        let (config, diagnostics, _) = try Self.load("""
            source:
              url: file:///etc/marquee.yaml
              interval: 1
            cache:
              maxBytes: lots
              downloads: 3
            playlist:
              items:
                - url: http://cms.example/a.mp4
                  sha256: abc
                  size: 12M
            """)
        #expect(config == nil)
        #expect(diagnostics == [
            "2:8: error: unsupported scheme 'file' for a config source (expected http or https)",
            "3:13: error: interval 1 s is out of range (expected 5 to 86400 seconds)",
            "5:13: error: expected a size in bytes such as 2G or 500M, found 'lots'",
            "6:14: error: downloads 3 is out of range (expected 1 or 2 at a time)",
            "10:15: error: expected a SHA-256 (64 hex digits), found 'abc'",
            "11:13: error: expected the file's size in bytes (a whole number above 0), found '12M'",
        ], "\(diagnostics)")
    }

    @Test func remoteItemsAreCachedUnlessTheyStream() throws {
        let digest = String(repeating: "AB", count: 32)
        let (config, diagnostics, _) = try Self.load("""
            playlist:
              items:
                - url: https://cms.example/a.mp4
                  sha256: \(digest)
                  size: 1048576
                - {url: https://cms.example/live.ts, stream: true}
                - https://cms.example/live/index.m3u8
                - {url: local.mp4, stream: true}
            """)
        let items = try #require(config?.playlist.items)
        #expect(items.map(\.isCached) == [true, false, false, false])
        #expect(items[0].sha256 == digest.lowercased() && items[0].size == 1_048_576)
        #expect(diagnostics == ["8:24: warning: 'stream' applies to http(s) media only; ignored for a local file"], "\(diagnostics)")
    }

    @Test func byteSizesReadAsDfPrintsThem() {
        #expect(CacheConfiguration.parseBytes("500000000") == 500_000_000)
        #expect(CacheConfiguration.parseBytes("1.5G") == 1_610_612_736)
        #expect(CacheConfiguration.parseBytes("800 MiB") == 838_860_800)
        #expect(CacheConfiguration.parseBytes("512k") == 524_288)
        #expect(CacheConfiguration.parseBytes("2MB/s", rate: true) == 2_097_152)
        #expect(CacheConfiguration.parseBytes("2MB/s") == nil)
        #expect(CacheConfiguration.parseBytes("0") == nil)
        #expect(CacheConfiguration.parseBytes("-5M") == nil)
    }

    @Test func aFetchedConfigsRelativeURLsAreTheServers() throws {
        let url = URL(string: "https://cms.example/screens/lobby.yaml")!
        let result = ConfigurationLoader.load(fetchedText: """
            playlist:
              items:
                - media/a.mp4
                - /shared/b.png
                - https://cdn.example/c.mp4
                - file:///opt/local.mp4
              bogus: 1
            """, from: url, localFolder: URL(fileURLWithPath: "/tmp"))
        // A server's config never reaches a local file: a spoofed or compromised CMS could put any
        // picture on the device on screen.
        #expect(result.diagnostics.map(\.description) == [
            "https://cms.example/screens/lobby.yaml:6:7: error: a fetched config plays http(s) media only, not local files ('file:///opt/local.mp4')",
            "https://cms.example/screens/lobby.yaml:7:3: error: unknown key 'bogus' in playlist (expected 'repeat', 'seed', 'actionAtItemEnd', 'items' or 'schedule')",
        ], "\(result.diagnostics)")
        let fixed = ConfigurationLoader.load(fetchedText: "playlist:\n  items: [media/a.mp4, /shared/b.png, 'https://cdn.example/c.mp4']\n",
                                             from: url, localFolder: URL(fileURLWithPath: "/tmp"))
        #expect(fixed.configuration?.playlist.items.map(\.location.description) == [
            "https://cms.example/screens/media/a.mp4", "https://cms.example/shared/b.png", "https://cdn.example/c.mp4",
        ])
    }

    @Test func aFetchedConfigNamingALocalFileAnywhereIsRefused() throws {
        let url = URL(string: "http://cms.example/lobby.json")!
        for item in ["file:///etc/marquee/secret.png", "file://localhost/root/x.mp4", "FILE:///opt/a.mp4"] {
            let result = ConfigurationLoader.load(fetchedText: #"{"playlist": {"items": ["\#(item)"]}}"#, from: url,
                                                  localFolder: URL(fileURLWithPath: "/tmp"))
            #expect(result.configuration == nil, "\(item)")
            #expect(result.diagnostics.contains { $0.description.contains("a fetched config plays http(s) media only") }, "\(result.diagnostics)")
        }
        let dayparts = ConfigurationLoader.load(fetchedText: """
            schedule: {timezone: UTC}
            playlists:
              lunch:
                schedule: {from: "11:00", to: "14:00"}
                items: [file:///opt/lunch.mp4]
              default:
                items: [a.mp4]
            """, from: URL(string: "https://cms.example/d.yaml")!, localFolder: URL(fileURLWithPath: "/tmp"))
        #expect(dayparts.diagnostics.contains { $0.description.contains(":5:") && $0.description.contains("http(s) media only") },
                "\(dayparts.diagnostics)")
    }
}
