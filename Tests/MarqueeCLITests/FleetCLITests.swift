import Foundation
import Glibc
import MarqueeTestSupport
import Testing

/// `marquee play URL`: the config and its media from a real HTTP server on 127.0.0.1, downloaded
/// into the cache, verified, and played from it; polled with validators; switched at the item
/// boundary once the new media are in; kept across restarts for playing offline.
@Suite(.serialized) struct FleetCLITests {
    static func lobby(_ fixture: FleetFixture, _ names: [String], hashed: Bool = true) -> String {
        "playlist:\n  repeat: all\n  items:\n" + names.map { name in
            "    - url: media/\(name).mp4\n" + (hashed ? "      sha256: \(fixture.clips[name]!.sha256)\n" : "")
        }.joined()
    }

    @Test func aFetchedConfigsMediaAreVerifiedCachedAndPlayedAndAChangeWaitsForItsMedia() throws {
        let fixture = try FleetFixture(name: "switch")
        defer { fixture.server.stop() }
        fixture.serveConfig(Self.lobby(fixture, ["one", "two"]), etag: "v1")
        fixture.serve("one")
        fixture.serve("two")
        let run = try fixture.play()
        #expect(run.waitForEvents(seconds: 30) { FleetFixture.starts($0).contains(fixture.mediaURL("two")) }, "\(run.standardError())")

        // Played by their URLs, from verified copies named by their content.
        let events = run.events()
        #expect(Array(FleetFixture.starts(events).prefix(2)) == [fixture.mediaURL("one"), fixture.mediaURL("two")])
        let cached = events.filter { $0["event"] as? String == "downloadProgress" && $0["state"] as? String == "cached" }
        #expect(Set(cached.compactMap { $0["url"] as? String }) == [fixture.mediaURL("one"), fixture.mediaURL("two")], "\(cached)")
        #expect(fixture.cachedFiles() == ["\(fixture.clips["one"]!.sha256).mp4", "\(fixture.clips["two"]!.sha256).mp4"].sorted())
        for name in fixture.cachedFiles() {
            let digest = try FleetFixture.sha256sum(fixture.cache.appendingPathComponent("media/\(name)").path)
            #expect(name.hasPrefix(digest))
        }
        #expect(fixture.server.requestedPaths.filter { $0.hasSuffix(".mp4") }.sorted() == ["/screens/media/one.mp4", "/screens/media/two.mp4"])

        // A poll (SIGHUP asks at once) sends the ETag: the 304 changes nothing.
        kill(run.process.processIdentifier, SIGHUP)
        #expect(waitUntil { fixture.server.requests.filter { $0.path == "/screens/lobby.yaml" }.count >= 2 })
        let poll = fixture.server.requests.last { $0.path == "/screens/lobby.yaml" }
        #expect(poll?.headers["if-none-match"] == "\"v1\"", "\(String(describing: poll?.headers))")
        #expect(poll?.headers["if-modified-since"] == "Thu, 26 Nov 2026 07:00:00 GMT")

        // A new config whose clip comes slowly: the old playlist plays on until it is in.
        fixture.serve("three") { .throttledFile($0, contentType: "video/mp4", bytesPerSecond: 10_000) }
        fixture.serveConfig(Self.lobby(fixture, ["three"]), etag: "v2")
        kill(run.process.processIdentifier, SIGHUP)
        #expect(run.waitForEvents(seconds: 30) { FleetFixture.starts($0).contains(fixture.mediaURL("three")) }, "\(run.standardError())")
        let after = run.events()
        let threeCached = after.firstIndex { $0["event"] as? String == "downloadProgress" && $0["state"] as? String == "cached"
            && $0["url"] as? String == fixture.mediaURL("three") }
        let threeStarted = after.firstIndex { $0["event"] as? String == "itemStarted" && $0["url"] as? String == fixture.mediaURL("three") }
        let progress = after.filter { $0["event"] as? String == "downloadProgress" && $0["url"] as? String == fixture.mediaURL("three")
            && $0["state"] as? String == "downloading" }
        #expect(progress.count >= 2, "a slow download reports its progress: \(progress)")
        if let threeCached, let threeStarted {
            #expect(threeCached < threeStarted)
            // The old playlist went on while three downloaded, and ended at an item boundary.
            let between = FleetFixture.starts(Array(after[..<threeStarted])).suffix(2)
            #expect(between.allSatisfy { $0 != fixture.mediaURL("three") })
            #expect(!after.contains { $0["event"] as? String == "itemEnded" && $0["reason"] as? String == "userExited" })
        } else {
            Issue.record("three was not cached before it started: \(after.filter { ($0["url"] as? String)?.contains("three") == true })")
        }
        // The config kept for an offline boot is the new one.
        let kept = try String(contentsOf: fixture.cache.appendingPathComponent("config/remote.yaml"), encoding: .utf8)
        #expect(kept == Self.lobby(fixture, ["three"]))
        #expect(run.terminate() == 0)
        #expect(!run.standardError().contains("error"), "\(run.standardError())")
    }

    @Test func withTheServerGoneTheCachedConfigPlaysAndWithNothingCachedTheJournalSaysWhy() throws {
        let fixture = try FleetFixture(name: "offline")
        fixture.serveConfig(Self.lobby(fixture, ["one"]), etag: "v1")
        fixture.serve("one")
        let first = try fixture.play()
        #expect(first.waitForEvents(seconds: 30) { FleetFixture.starts($0).contains(fixture.mediaURL("one")) }, "\(first.standardError())")
        #expect(first.terminate() == 0)
        let port = fixture.server.port
        fixture.server.stop()

        // Offline boot: the config and media from the cache, said in the journal.
        let offline = try fixture.play()
        #expect(offline.waitForEvents(seconds: 30) { FleetFixture.starts($0).count >= 2 }, "\(offline.standardError())")
        #expect(Set(FleetFixture.starts(offline.events())) == [fixture.mediaURL("one")])
        let journal = offline.standardError()
        #expect(journal.contains("source: playing the config fetched from \(fixture.configURL) at "), "\(journal)")
        #expect(FleetFixture.waitFor(offline, "source: \(fixture.configURL): "), "\(offline.standardError())")
        #expect(offline.standardError().contains("the config playing goes on"), "\(offline.standardError())")
        #expect(offline.terminate() == 0)

        // An empty cache and no network: nothing plays, and the journal says why; the player waits.
        try FileManager.default.removeItem(at: fixture.cache)
        let empty = try fixture.play()
        #expect(FleetFixture.waitFor(empty, "nothing to play until it answers"), "\(empty.standardError())")
        Thread.sleep(forTimeInterval: 1)
        #expect(empty.process.isRunning)
        #expect(FleetFixture.starts(empty.events()).isEmpty)
        // The server comes back where the player looks; a reload asks at once, and it plays.
        let back = try LoopbackHTTPServer(port: port)
        defer { back.stop() }
        back.setRoute("/screens/lobby.yaml", .file(Data(Self.lobby(fixture, ["one"]).utf8), contentType: "application/yaml"))
        back.setRoute("/screens/media/one.mp4", .file(fixture.clips["one"]!.data, contentType: "video/mp4"))
        kill(empty.process.processIdentifier, SIGHUP)
        #expect(empty.waitForEvents(seconds: 30) { FleetFixture.starts($0).contains(fixture.mediaURL("one")) }, "\(empty.standardError())")
        #expect(FleetFixture.waitFor(empty, "answers again"))
        #expect(empty.terminate() == 0)
    }

    @Test func anInvalidConfigIsLoggedWithItsPositionAndTheOneKeptPlaysOn() throws {
        let fixture = try FleetFixture(name: "invalid")
        defer { fixture.server.stop() }
        fixture.serveConfig(Self.lobby(fixture, ["one"]), etag: "v1")
        fixture.serve("one")
        let run = try fixture.play()
        #expect(run.waitForEvents(seconds: 30) { FleetFixture.starts($0).contains(fixture.mediaURL("one")) }, "\(run.standardError())")
        fixture.serveConfig("playlist:\n  repeat: twice\n  items: [media/one.mp4]\n", etag: "v2")
        kill(run.process.processIdentifier, SIGHUP)
        #expect(FleetFixture.waitFor(run, "rejected (1 error); the config playing goes on"), "\(run.standardError())")
        #expect(run.standardError().contains("\(fixture.configURL):2:11: error: "), "\(run.standardError())")
        let startsBefore = FleetFixture.starts(run.events()).count
        #expect(run.waitForEvents(seconds: 10) { FleetFixture.starts($0).count >= startsBefore + 2 })
        #expect(try String(contentsOf: fixture.cache.appendingPathComponent("config/remote.yaml"), encoding: .utf8) == Self.lobby(fixture, ["one"]))
        // The same refused text again is not logged again.
        kill(run.process.processIdentifier, SIGHUP)
        #expect(waitUntil { fixture.server.requests.filter { $0.path == "/screens/lobby.yaml" }.count >= 3 })
        Thread.sleep(forTimeInterval: 0.5)
        #expect(run.standardError().components(separatedBy: "rejected (1 error)").count == 2)
        #expect(run.terminate() == 0)
    }

    /// The fault list: a hash mismatch, a redirect to file:, a connection dropped mid-body, a
    /// body longer than the config's `size:` and a body shorter than announced. Only verified media play; no fault holds back the others.
    @Test func badDownloadsAreLeftOutWithOneLineAndTheRestPlays() throws {
        let fixture = try FleetFixture(name: "faults")
        defer { fixture.server.stop() }
        let one = fixture.clips["one"]!, two = fixture.clips["two"]!
        fixture.serveConfig("""
            playlist:
              repeat: all
              items:
                - url: media/one.mp4
                  sha256: \(one.sha256)
                - url: media/lying.mp4
                  sha256: \(fixture.clips["four"]!.sha256)
                - url: media/passwd.mp4
                - url: media/long.mp4
                  size: \(fixture.clips["four"]!.data.count - 1)
                - url: media/two.mp4
                  sha256: \(two.sha256)
            """, etag: "v1")
        fixture.serve("one")
        fixture.server.setRoute("/screens/media/lying.mp4", .file(fixture.clips["three"]!.data, contentType: "video/mp4"))
        fixture.server.setRoute("/screens/media/passwd.mp4", .redirect(to: "file:///etc/passwd"))
        fixture.server.setRoute("/screens/media/long.mp4", .file(fixture.clips["four"]!.data, contentType: "video/mp4"))
        fixture.serve("two") { .droppingFile($0, contentType: "video/mp4", after: $0.count / 2) }
        let run = try fixture.play()
        #expect(run.waitForEvents(seconds: 60) { FleetFixture.starts($0).contains(fixture.mediaURL("two")) }, "\(run.standardError())")
        #expect(run.waitForEvents(seconds: 10) { FleetFixture.starts($0).count >= 4 })
        let starts = Set(FleetFixture.starts(run.events()))
        #expect(starts == [fixture.mediaURL("one"), fixture.mediaURL("two")], "\(starts)")
        let journal = run.standardError()
        #expect(journal.contains("sha256 mismatch"), "\(journal)")
        #expect(journal.contains("redirect to file: refused"), "\(journal)")
        #expect(journal.contains("media/long.mp4: larger than its size: in the config (\(fixture.clips["four"]!.data.count - 1) bytes); left out until the config changes"), "\(journal)")
        // The dropped download was resumed with a Range, not fetched again from the start.
        let ranged = fixture.server.requests.filter { $0.path == "/screens/media/two.mp4" }.compactMap { $0.headers["range"] }
        #expect(ranged.contains { $0.hasPrefix("bytes=") && $0 != "bytes=0-" }, "\(fixture.server.requests.filter { $0.path.hasSuffix("two.mp4") }.map(\.headers))")
        // Only files whose hash is the config's are in the cache.
        #expect(fixture.cachedFiles() == ["\(one.sha256).mp4", "\(two.sha256).mp4"].sorted())
        #expect(run.terminate() == 0, "\(run.standardError().suffix(3000))")
    }

    /// A media server answering 500: retried with back-off, then left out so the rest of the
    /// playlist plays; the next check of the config (a 304) tries it again, and it joins.
    @Test func aFailingMediaServerHoldsBackNothingAndItsItemJoinsOnceItAnswers() throws {
        let fixture = try FleetFixture(name: "flaky")
        defer { fixture.server.stop() }
        fixture.serveConfig(Self.lobby(fixture, ["one", "two"]), etag: "v1")
        fixture.serve("one")
        fixture.server.setRoute("/screens/media/two.mp4", .status(500))
        let run = try fixture.play()
        #expect(run.waitForEvents(seconds: 40) { FleetFixture.starts($0).contains(fixture.mediaURL("one")) }, "\(run.standardError())")
        #expect(run.standardError().contains("cache: \(fixture.mediaURL("two")): HTTP 500 (4 times in a row); left out until the config is next checked"),
                "\(run.standardError())")
        #expect(run.standardError().contains("HTTP 500; retrying in"))
        #expect(!FleetFixture.starts(run.events()).contains(fixture.mediaURL("two")))

        fixture.serve("two")
        kill(run.process.processIdentifier, SIGHUP)
        #expect(run.waitForEvents(seconds: 30) { FleetFixture.starts($0).contains(fixture.mediaURL("two")) }, "\(run.standardError())")
        #expect(run.standardError().contains("cache: trying again the media left out of the playlist playing"))
        #expect(run.terminate() == 0)
    }

    /// kill -9 in the middle of a download: the restart resumes the part file, and nothing whose
    /// hash differs from the config's is ever played or kept.
    @Test func killedMidDownloadTheRestartResumesAndPlaysOnlyVerifiedMedia() throws {
        let fixture = try FleetFixture(name: "kill9")
        defer { fixture.server.stop() }
        let big = fixture.clips["big"]!
        fixture.serveConfig(Self.lobby(fixture, ["big"]), etag: "v1")
        let rate = max(50_000, big.data.count / 6)
        fixture.serve("big") { .throttledFile($0, contentType: "video/mp4", bytesPerSecond: rate) }
        let first = try fixture.play()
        let partial = fixture.cache.appendingPathComponent("partial")
        #expect(waitUntil(seconds: 20) { Self.partBytes(partial) > big.data.count / 5 }, "\(first.standardError())")
        kill(first.process.processIdentifier, SIGKILL)
        _ = first.waitForExit(seconds: 5)
        let leftAt = Self.partBytes(partial)
        #expect(leftAt > 0 && leftAt < big.data.count)
        #expect(fixture.cachedFiles().isEmpty)

        let second = try fixture.play()
        #expect(second.waitForEvents(seconds: 60) { FleetFixture.starts($0).contains(fixture.mediaURL("big")) }, "\(second.standardError())")
        let ranges = fixture.server.requests.filter { $0.path == "/screens/media/big.mp4" }.compactMap { $0.headers["range"] }
        #expect(ranges.contains { range in Int(range.dropFirst("bytes=".count).prefix { $0.isNumber }).map { $0 > 0 && $0 <= leftAt } == true },
                "\(ranges) after \(leftAt) bytes")
        #expect(fixture.cachedFiles() == ["\(big.sha256).mp4"])
        #expect(try FleetFixture.sha256sum(fixture.cache.appendingPathComponent("media/\(big.sha256).mp4").path) == big.sha256)
        #expect(second.terminate() == 0)
    }

    /// The same without a sha256 in the config: the part file's record of the response's ETag
    /// (kept from its first byte) lets the restart resume with `If-Range`, and the size check
    /// guards the result.
    @Test func killedMidDownloadWithoutAHashTheRestartResumesWithIfRange() throws {
        let fixture = try FleetFixture(name: "kill9-etag")
        defer { fixture.server.stop() }
        let big = fixture.clips["big"]!
        fixture.serveConfig(Self.lobby(fixture, ["big"], hashed: false), etag: "v1")
        fixture.serve("big") { .throttledTaggedFile($0, contentType: "video/mp4", etag: "\"big-1\"", bytesPerSecond: max(50_000, $0.count / 6)) }
        let first = try fixture.play()
        let partial = fixture.cache.appendingPathComponent("partial")
        #expect(waitUntil(seconds: 20) { Self.partBytes(partial) > big.data.count / 5 }, "\(first.standardError())")
        kill(first.process.processIdentifier, SIGKILL)
        _ = first.waitForExit(seconds: 5)
        let leftAt = Self.partBytes(partial)

        let second = try fixture.play()
        #expect(second.waitForEvents(seconds: 60) { FleetFixture.starts($0).contains(fixture.mediaURL("big")) }, "\(second.standardError())")
        let resumed = fixture.server.requests.filter { $0.path == "/screens/media/big.mp4" }.dropFirst()
        #expect(resumed.contains { $0.headers["if-range"] == "\"big-1\"" && $0.headers["range"].map { $0 != "bytes=0-" } == true },
                "\(resumed.map(\.headers)) after \(leftAt) bytes")
        #expect(fixture.cachedFiles() == ["\(big.sha256).mp4"])
        #expect(second.terminate() == 0)
    }

    /// A burst of reloads (SIGHUP, or `reload` over MQTT) asks the server once at once and once more
    /// at the end of a 5 s window, not once each.
    @Test func aBurstOfReloadsAsksTheServerOnce() throws {
        let fixture = try FleetFixture(name: "burst")
        defer { fixture.server.stop() }
        let bootstrap = fixture.folder.appendingPathComponent("bootstrap.yaml")
        try Data("source: {url: \(fixture.configURL), interval: 3600}\ncache: {dir: \(fixture.cache.path)}\n".utf8).write(to: bootstrap)
        fixture.serveConfig(Self.lobby(fixture, ["one"]), etag: "v1")
        fixture.serve("one")
        let run = try fixture.play(bootstrap.path)
        defer { _ = run.terminate() }
        #expect(run.waitForEvents(seconds: 30) { FleetFixture.starts($0).contains(fixture.mediaURL("one")) }, "\(run.standardError())")
        let configAsks = { fixture.server.requestedPaths.filter { $0 == "/screens/lobby.yaml" }.count }
        #expect(configAsks() == 1)
        for _ in 0..<50 {
            kill(run.process.processIdentifier, SIGHUP)
            usleep(20_000)
        }
        Thread.sleep(forTimeInterval: 2)
        #expect(configAsks() == 2, "\(configAsks()) requests for the config after 50 SIGHUPs in a second")
        // The burst's end is not lost: asked once more when the window closes, then not again.
        #expect(waitUntil(seconds: 10) { configAsks() >= 3 }, "\(configAsks()) requests")
        Thread.sleep(forTimeInterval: 6)
        #expect(configAsks() == 3, "\(configAsks()) requests")
        #expect(run.process.isRunning)
    }

    /// A bootstrap config (source and cache) whose bound is smaller than the playlist: what the
    /// playlist names is never evicted; what a new playlist no longer names is.
    @Test func aCacheBoundSmallerThanThePlaylistKeepsWhatPlaysAndEvictsTheRest() throws {
        let fixture = try FleetFixture(name: "bound")
        defer { fixture.server.stop() }
        // Any one file fits (none may be larger than the whole cache), two together do not.
        let sizes = ["one", "two", "three", "four"].map { fixture.clips[$0]!.data.count }
        let bound = sizes.max()! + 1
        try #require(fixture.clips["one"]!.data.count + fixture.clips["two"]!.data.count > bound)
        let bootstrap = fixture.folder.appendingPathComponent("bootstrap.yaml")
        try Data("""
            source: {url: \(fixture.configURL), interval: 3600}
            cache: {dir: \(fixture.cache.path), maxBytes: \(bound)}
            """.utf8).write(to: bootstrap)
        fixture.serveConfig(Self.lobby(fixture, ["one", "two"]), etag: "v1")
        ["one", "two", "three"].forEach { fixture.serve($0) }
        let run = try fixture.play(bootstrap.path)
        #expect(run.waitForEvents(seconds: 30) { FleetFixture.starts($0).contains(fixture.mediaURL("two")) }, "\(run.standardError())")
        #expect(fixture.cachedFiles().count == 2, "both are kept though they exceed the bound")
        fixture.serveConfig(Self.lobby(fixture, ["three"]), etag: "v2")
        kill(run.process.processIdentifier, SIGHUP)
        #expect(run.waitForEvents(seconds: 30) { FleetFixture.starts($0).contains(fixture.mediaURL("three")) }, "\(run.standardError())")
        // One more change: one and two are named by neither the playlist nor the one it replaced.
        fixture.serveConfig(Self.lobby(fixture, ["three", "four"]), etag: "v3")
        fixture.serve("four")
        kill(run.process.processIdentifier, SIGHUP)
        #expect(run.waitForEvents(seconds: 30) { FleetFixture.starts($0).contains(fixture.mediaURL("four")) }, "\(run.standardError())")
        #expect(waitUntil { !fixture.cachedFiles().contains("\(fixture.clips["one"]!.sha256).mp4") }, "\(fixture.cachedFiles())")
        #expect(fixture.cachedFiles().contains("\(fixture.clips["three"]!.sha256).mp4"))
        #expect(fixture.cachedFiles().contains("\(fixture.clips["four"]!.sha256).mp4"))
        #expect(FleetFixture.waitFor(run, "cache: evicted"), "\(run.standardError())")
        #expect(run.terminate() == 0)
    }

    /// The source's credentials go to its own host only (another host asking for them gets none),
    /// and `status` tells the cache's state.
    @Test func credentialsGoToTheSourcesHostOnlyAndStatusTellsTheCache() throws {
        let fixture = try FleetFixture(name: "credentials")
        defer { fixture.server.stop() }
        let other = try LoopbackHTTPServer()
        defer { other.stop() }
        let one = fixture.clips["one"]!.data, two = fixture.clips["two"]!.data
        let elsewhere = other.url("/two.mp4")
        fixture.server.setRoute("/screens/lobby.yaml", .basicAuth(user: "lobby", password: "s3cret", route: .file(Data("""
            playlist:
              items:
                - media/one.mp4
                - \(elsewhere)
            """.utf8), contentType: "application/yaml")))
        fixture.server.setRoute("/screens/media/one.mp4", .basicAuth(user: "lobby", password: "s3cret", route: .file(one, contentType: "video/mp4")))
        other.setRoute("/two.mp4", .basicAuth(user: "lobby", password: "s3cret", route: .file(two, contentType: "video/mp4")))
        try Data("lobby:s3cret\n".utf8).write(to: fixture.folder.appendingPathComponent("cms.txt"))
        let bootstrap = fixture.folder.appendingPathComponent("bootstrap.yaml")
        try Data("""
            source: {url: \(fixture.configURL), credentials: cms.txt}
            cache: {dir: cache, maxBytes: 50M}
            """.utf8).write(to: bootstrap)
        let player = try ControlledPlayer(arguments: ["play", bootstrap.path, "--output", "headless:160x90", "--audio", "null",
                                                      "--clock", "realtime"], in: fixture.folder)
        #expect(player.run.waitForEvents(seconds: 40) { FleetFixture.starts($0).contains(fixture.mediaURL("one")) }, "\(player.run.standardError())")
        #expect(FleetFixture.waitFor(player.run, "cache: \(elsewhere): HTTP 401"), "\(player.run.standardError())")
        #expect(fixture.server.requests.allSatisfy { $0.headers["authorization"] != nil })
        #expect(other.requests.allSatisfy { $0.headers["authorization"] == nil } && !other.requests.isEmpty)
        #expect(!player.run.standardError().contains("s3cret"))
        // Basic auth over plain http, from a file anyone may read: each said once, at start.
        let warnings = player.run.standardError().components(separatedBy: "\n").filter { $0.hasPrefix("warning: source:") }
        #expect(warnings.contains { $0.contains("cms.txt may be read by anyone (mode 644); chmod o-r") }, "\(warnings)")
        #expect(warnings.filter { $0.hasSuffix("the credentials go over plain http, readable by anyone on the network; use https") }.count == 1, "\(warnings)")

        let cache = try #require(try player.status()["cache"] as? [String: Any])
        #expect(cache["dir"] as? String == fixture.folder.appendingPathComponent("cache").path)
        #expect(cache["wanted"] as? Int == 2 && cache["cached"] as? Int == 1, "\(cache)")
        #expect(cache["maxBytes"] as? Int == 50 << 20)
        // one's file, and the small record of two's attempted download (a part file's sidecar).
        #expect((cache["bytes"] as? Int).map { $0 >= one.count && $0 < one.count + 4096 } == true, "\(cache)")
        let failed = try #require(cache["failed"] as? [[String: Any]])
        #expect(failed.map { $0["url"] as? String } == [elsewhere], "\(failed)")
        #expect(player.run.terminate() == 0)
    }

    /// A local config naming a remote item: it too is downloaded and verified before the playlist
    /// plays, beside the local file; a stream (`stream: true`) is played from the network.
    @Test func aLocalConfigsRemoteItemsAreCachedAndStreamsAreNot() throws {
        let fixture = try FleetFixture(name: "local")
        defer { fixture.server.stop() }
        fixture.serve("one")
        fixture.serve("two")
        let local = fixture.folder.appendingPathComponent("three.mp4")
        try fixture.clips["three"]!.data.write(to: local)
        let config = fixture.folder.appendingPathComponent("local.yaml")
        try Data("""
            playlist:
              items:
                - three.mp4
                - url: \(fixture.mediaURL("one"))
                  sha256: \(fixture.clips["one"]!.sha256)
                - url: \(fixture.mediaURL("two"))
                  stream: true
            cache: {dir: cache}
            """.utf8).write(to: config)
        let run = try fixture.play(config.path)
        #expect(run.waitForEvents(seconds: 30) { FleetFixture.starts($0).count >= 4 }, "\(run.standardError())")
        #expect(Array(FleetFixture.starts(run.events()).prefix(3)) == [local.path, fixture.mediaURL("one"), fixture.mediaURL("two")])
        #expect(fixture.cachedFiles() == ["\(fixture.clips["one"]!.sha256).mp4"])
        // The stream was read by FFmpeg each time it played; the cached item was fetched once.
        #expect(fixture.server.requestedPaths.filter { $0.hasSuffix("one.mp4") }.count == 1)
        #expect(run.terminate() == 0)
    }

    private static func partBytes(_ folder: URL) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".part") }.compactMap {
            (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent($0).path)[.size] as? Int) ?? nil
        }.max() ?? 0
    }

    private func waitUntil(seconds: Double = 20, _ done: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if done() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return done()
    }
}
