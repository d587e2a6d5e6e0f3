import Foundation
import MarqueeTestSupport
import Testing

/// Media behind a password (`http://user:password@host/...`), against a loopback server that asks
/// for Basic authentication: it plays and probes with the real credentials, and the password shows
/// nowhere an operator looks (events, journal, probe output, error lines, check diagnostics).
@Suite(.serialized) struct CredentialURLCLITests {
    private func protectedServer() throws -> LoopbackHTTPServer {
        let clip = try Data(contentsOf: PlayCommandTests.workspace.get().appendingPathComponent("a.mp4"))
        return try LoopbackHTTPServer(routes: [
            "/a.mp4": .basicAuth(user: "user", password: "secret", route: .file(clip, contentType: "video/mp4")),
        ])
    }

    @Test func playsWithThePasswordAndShowsItNowhere() throws {
        let server = try protectedServer()
        defer { server.stop() }
        let good = "http://user:secret@127.0.0.1:\(server.port)/a.mp4"
        let refused = "http://user:guess@127.0.0.1:\(server.port)/a.mp4"
        let shown = "http://user:***@127.0.0.1:\(server.port)/a.mp4"
        let run = try PlayerRun(arguments: ["play", good, refused, "--output", "headless:320x180", "--clock", "fast",
                                            "--audio", "null", "--input", "none", "--exit-when-idle", "--repeat", "off"],
                                in: try PlayCommandTests.workspace.get())
        #expect(run.waitForExit(seconds: 60) == 0)

        let events = run.events()
        let eventsText = events.map { "\($0)" }.joined(separator: "\n")
        let stderr = run.standardError()
        // The real credentials reached the server: the first item played, all 50 frames of it.
        #expect(events.filter { $0["event"] as? String == "frame" && $0["item"] as? Int == 0 }.count == 50, "\(stderr)")
        #expect(events.contains { $0["event"] as? String == "itemStarted" && $0["url"] as? String == shown }, "\(eventsText)")
        let failure = events.first { $0["event"] as? String == "itemEnded" && $0["reason"] as? String == "playbackError" }
        #expect(failure?["url"] as? String == shown, "\(eventsText)")
        #expect(stderr.contains("info: item 1/2 started: \(shown)\n"), "\(stderr)")
        #expect(stderr.contains("error: \(shown): server refused (HTTP 401)\n"), "\(stderr)")
        for password in ["secret", "guess"] {
            #expect(!stderr.contains(password), "\(stderr)")
            #expect(!eventsText.contains(password), "\(eventsText)")
        }
    }

    @Test func probeShowsTheURLWithoutItsPassword() throws {
        let server = try protectedServer()
        defer { server.stop() }
        let folder = try PlayCommandTests.workspace.get()
        let url = "http://user:secret@127.0.0.1:\(server.port)/a.mp4"
        let shown = "http://user:***@127.0.0.1:\(server.port)/a.mp4"

        let text = try MarqueeProcess.run(["probe", url], in: folder)
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.outputLines.first == "url           \(shown)", "\(text.standardOutput)")
        let json = try MarqueeProcess.run(["probe", url, "--json"], in: folder)
        #expect(json.status == 0, "\(json.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect(object?["url"] as? String == shown)
        let refused = try MarqueeProcess.run(["probe", "http://user:guess@127.0.0.1:\(server.port)/a.mp4"], in: folder)
        #expect(refused.status == 1)
        #expect(refused.standardError == "\(shown): server refused (HTTP 401)\n")
        for outcome in [text, json, refused] {
            #expect(!(outcome.standardOutput + outcome.standardError).contains("secret"))
            #expect(!(outcome.standardOutput + outcome.standardError).contains("guess"))
        }
    }

    @Test func checkQuotesABadURLWithoutItsPassword() throws {
        let folder = try PlayCommandTests.workspace.get()
        let config = folder.appendingPathComponent("credentials-\(UUID().uuidString).yaml")
        try Data("playlist:\n  items:\n    - url: \"http://user:secret@\"\n".utf8).write(to: config)
        defer { try? FileManager.default.removeItem(at: config) }

        let check = try MarqueeProcess.run(["check", config.path], in: folder)

        #expect(check.status == 1)
        #expect(check.standardOutput.contains("error: invalid URL 'http://user:***@'"), "\(check.standardOutput)")
        #expect(!check.standardOutput.contains("secret"))
        let play = try MarqueeProcess.run(["play", config.path, "--output", "headless"], in: folder)
        #expect(play.status == 1)
        #expect(play.standardError.contains("error: invalid URL 'http://user:***@'") && !play.standardError.contains("secret"),
                "\(play.standardError)")
    }
}
