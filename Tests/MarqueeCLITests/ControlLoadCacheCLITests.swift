import Foundation
import MarqueeTestSupport
import Testing

/// A control client's `load` takes the road a reloaded or fetched config takes: its remote items
/// are downloaded into the cache and verified (`sha256:`) before the playlist goes to the player,
/// even in a run that started with local media only. It used to stream them at once, unverified.
@Suite(.serialized) struct ControlLoadCacheCLITests {
    @Test func aLoadedConfigsRemoteItemsAreVerifiedInTheCacheBeforeTheyPlay() throws {
        let media = try PlayCommandTests.workspace.get()
        let clip = try Data(contentsOf: media.appendingPathComponent("silent.mp4"))
        let digest = try FleetFixture.sha256sum(media.appendingPathComponent("silent.mp4").path)
        let server = try LoopbackHTTPServer(routes: ["/good.mp4": .file(clip, contentType: "video/mp4"),
                                                     "/lying.mp4": .file(clip, contentType: "video/mp4")])
        defer { server.stop() }
        let folder = try CLIFixtures.workspace(prefix: "marquee-load-cache-")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("cache").path
        let start = folder.appendingPathComponent("start.yaml").path
        try """
            playlist:
              repeat: all
              items: [\(media.appendingPathComponent("a.mp4").path)]
            cache:
              dir: \(cache)
            """.write(toFile: start, atomically: true, encoding: .utf8)
        let lying = folder.appendingPathComponent("lying.yaml").path
        try """
            playlist:
              repeat: all
              items:
                - url: \(server.url("/lying.mp4"))
                  sha256: \(String(repeating: "0", count: 64))
            """.write(toFile: lying, atomically: true, encoding: .utf8)
        let good = folder.appendingPathComponent("good.yaml").path
        try """
            playlist:
              repeat: all
              items:
                - url: \(server.url("/good.mp4"))
                  sha256: \(digest)
            """.write(toFile: good, atomically: true, encoding: .utf8)

        let player = try ControlledPlayer(arguments: ["play", start, "--output", "headless:160x90"], in: folder)
        #expect(player.run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        func starts() -> [String] {
            player.run.events().filter { $0["event"] as? String == "itemStarted" }.compactMap { $0["url"] as? String }
        }

        let refused = try player.request(["command": "load", "path": lying])
        #expect(refused["ok"] as? Bool == true && refused["staged"] as? Int == 1, "\(refused)")
        #expect(FleetFixture.waitFor(player.run, seconds: 20, "sha256 mismatch"), "\(player.run.standardError())")
        Thread.sleep(forTimeInterval: 1)
        #expect(!starts().contains(server.url("/lying.mp4")), "\(starts())")
        // Fetched whole from the start, never streamed with ranges by the player.
        #expect(!server.requests.contains { $0.path == "/lying.mp4" && ($0.headers["range"] ?? "bytes=0-") != "bytes=0-" })

        let loaded = try player.request(["command": "load", "path": good])
        #expect(loaded["ok"] as? Bool == true && loaded["staged"] as? Int == 1, "\(loaded)")
        #expect(player.run.waitForEvents(seconds: 30) { _ in starts().contains(server.url("/good.mp4")) }, "\(player.run.standardError())")
        let cached = (try? FileManager.default.contentsOfDirectory(atPath: cache + "/media")) ?? []
        #expect(cached == ["\(digest).mp4"], "\(cached)")
        #expect(player.run.standardError().contains("remote item to download and verify first"), "\(player.run.standardError())")
        #expect(try player.request(["command": "quit"])["ok"] as? Bool == true)
        #expect(player.run.waitForExit(seconds: 20) == 0)
    }
}
