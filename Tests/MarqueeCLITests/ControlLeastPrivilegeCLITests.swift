import Foundation
import Glibc
import MarqueeTestSupport
import Testing

/// What a control client may make the player read or write (issue 33's findings 1, 2 and 9): a
/// `load` reads configs and local media only under the player's roots (the config's folder, or the
/// working folder for media given on the command line, and the cache) and never quotes a file that
/// is not a config; `screenshot` writes only new files into the screenshots folder. Each refusal
/// is an error reply and a journal line naming the client.
@Suite(.serialized) struct ControlLeastPrivilegeCLITests {
    /// A folder outside the player's roots, holding a secret, a valid config and a picture.
    private func outside() throws -> URL {
        let folder = try CLIFixtures.workspace(prefix: "marquee-outside-").appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "mqttuser:S3cretPass\n".write(to: folder.appendingPathComponent("mqtt-credentials"), atomically: true, encoding: .utf8)
        try "playlist:\n  items: [a.mp4]\n".write(to: folder.appendingPathComponent("elsewhere.yaml"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: try PlayCommandTests.workspace.get().appendingPathComponent("still.png"),
                                         to: folder.appendingPathComponent("private.png"))
        return folder
    }

    private func replyText(_ reply: [String: Any]) -> String {
        (try? String(decoding: JSONSerialization.data(withJSONObject: reply), as: UTF8.self)) ?? "\(reply)"
    }

    @Test func loadReadsOnlyUnderItsRootsAndNeverQuotesAFileThatIsNotAConfig() throws {
        let media = try PlayCommandTests.workspace.get()
        let folder = try CLIFixtures.workspace(prefix: "marquee-load-roots-").appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["a.mp4", "silent.mp4"] {
            try FileManager.default.copyItem(at: media.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let away = try outside()
        // Inside the root: a secret that is not a config, a link out of the root, a config naming media outside it.
        try "mqttuser:S3cretPass\n".write(to: folder.appendingPathComponent("creds.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.yaml").path,
                                                   withDestinationPath: away.appendingPathComponent("elsewhere.yaml").path)
        try "playlist:\n  items: [\(away.appendingPathComponent("private.png").path)]\n"
            .write(to: folder.appendingPathComponent("reaches-out.yaml"), atomically: true, encoding: .utf8)
        try "playlist:\n  items: [silent.mp4]\n".write(to: folder.appendingPathComponent("fine.yaml"), atomically: true, encoding: .utf8)

        let player = try ControlledPlayer(arguments: ["play", "a.mp4", "--output", "headless:160x90", "--audio", "null"], in: folder)
        #expect(player.run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        let root = URL(fileURLWithPath: folder.path).resolvingSymlinksInPath().path

        for (path, cause) in [
            (away.appendingPathComponent("mqtt-credentials").path, "configs are loaded only from \(root)"),
            (away.appendingPathComponent("elsewhere.yaml").path, "configs are loaded only from \(root)"),
            ("/proc/self/maps", "configs are loaded only from \(root)"),
            (folder.appendingPathComponent("link.yaml").path, "configs are loaded only from \(root)"),
            (folder.appendingPathComponent("creds.txt").path, "not a config file"),
            (folder.appendingPathComponent("reaches-out.yaml").path, "local media are played only from \(root)"),
        ] {
            let reply = try player.request(["command": "load", "path": path])
            #expect(reply["ok"] as? Bool == false && (reply["error"] as? String)?.contains(cause) == true, "\(path): \(replyText(reply))")
            #expect((reply["diagnostics"] as? [String] ?? []).isEmpty, "\(path): \(replyText(reply))")
            #expect(!replyText(reply).contains("S3cret") && !replyText(reply).contains("mqttuser"), "\(path) leaked: \(replyText(reply))")
        }
        let inline = try player.request(["command": "load", "playlist": ["items": [away.appendingPathComponent("private.png").path]]])
        #expect(inline["ok"] as? Bool == false && (inline["error"] as? String)?.contains("local media are played only from") == true,
                "\(replyText(inline))")
        // Each refusal is a journal line naming the client.
        let refusals = player.run.standardError().components(separatedBy: "\n").filter { $0.contains("control: load from control client") && $0.contains("refused") }
        #expect(refusals.count == 7, "\(refusals)")

        // Under the root, a config loads as before.
        let fine = try player.request(["command": "load", "path": folder.appendingPathComponent("fine.yaml").path])
        #expect(fine["ok"] as? Bool == true, "\(replyText(fine))")
        #expect(player.run.terminate() == 0)
    }

    /// A screenshots folder someone else made or opened to all (a shared /tmp) is not written into.
    @Test func aScreenshotsFolderOthersMayWriteIsRefused() throws {
        let media = try PlayCommandTests.workspace.get()
        let folder = try CLIFixtures.workspace(prefix: "marquee-shots-").appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("screenshots"), withIntermediateDirectories: true)
        #expect(chmod(folder.appendingPathComponent("screenshots").path, 0o777) == 0)
        try FileManager.default.copyItem(at: media.appendingPathComponent("still.png"), to: folder.appendingPathComponent("still.png"))
        let player = try ControlledPlayer(arguments: ["play", "still.png", "--output", "headless:160x90", "--audio", "null"], in: folder)
        #expect(player.run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "itemStarted" } })
        let reply = try player.request(["command": "screenshot", "path": "open.png"])
        #expect(reply["ok"] as? Bool == false && (reply["error"] as? String)?.contains("others may write to it") == true, "\(replyText(reply))")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("screenshots/open.png").path))
        #expect(player.run.terminate() == 0)
    }

    /// `media.roots` names the folders instead of the defaults: a config there loads, one beside the
    /// config playing does not.
    @Test func mediaRootsReplaceTheDefaultFolders() throws {
        let media = try PlayCommandTests.workspace.get()
        let folder = try CLIFixtures.workspace(prefix: "marquee-media-roots-").appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let away = try outside()
        try FileManager.default.copyItem(at: media.appendingPathComponent("a.mp4"), to: away.appendingPathComponent("a.mp4"))
        try FileManager.default.copyItem(at: media.appendingPathComponent("a.mp4"), to: folder.appendingPathComponent("a.mp4"))
        try "playlist:\n  items: [a.mp4]\n".write(to: folder.appendingPathComponent("beside.yaml"), atomically: true, encoding: .utf8)
        let config = folder.appendingPathComponent("main.yaml")
        try "playlist:\n  items: [a.mp4]\nmedia:\n  roots: [\(away.path)]\n".write(to: config, atomically: true, encoding: .utf8)
        let player = try ControlledPlayer(arguments: ["play", config.path, "--output", "headless:160x90", "--audio", "null"], in: folder)
        #expect(player.run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "itemStarted" } })

        let there = try player.request(["command": "load", "path": away.appendingPathComponent("elsewhere.yaml").path])
        #expect(there["ok"] as? Bool == true, "\(replyText(there))")
        let beside = try player.request(["command": "load", "path": folder.appendingPathComponent("beside.yaml").path])
        #expect(beside["ok"] as? Bool == false && (beside["error"] as? String)?.contains("configs are loaded only from") == true,
                "\(replyText(beside))")
        #expect(player.run.terminate() == 0)
    }

    @Test func screenshotsAreWrittenOnlyAsNewFilesInTheScreenshotsFolder() throws {
        let folder = try PlayCommandTests.workspace.get()
        let player = try ControlledPlayer(arguments: ["play", "still.png", "--output", "headless:160x90", "--audio", "null"], in: folder)
        #expect(player.run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        let shots = URL(fileURLWithPath: player.socketPath).deletingLastPathComponent().appendingPathComponent("screenshots")
        let tag = UUID().uuidString.prefix(6)

        let first = try player.request(["command": "screenshot", "path": "now-\(tag).png"])
        #expect(first["ok"] as? Bool == true && first["path"] as? String == shots.appendingPathComponent("now-\(tag).png").path, "\(replyText(first))")
        #expect(player.run.standardError().contains("control: screenshot written to \(shots.path)/now-\(tag).png for control client"))
        // Never over anything: the same name again, a path anywhere, the socket, a planted link.
        let again = try player.request(["command": "screenshot", "path": "now-\(tag).png"])
        #expect(again["ok"] as? Bool == false && (again["error"] as? String)?.contains("exists already") == true, "\(replyText(again))")
        let victim = folder.appendingPathComponent("victim-\(tag).txt")
        try "keep me\n".write(to: victim, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: shots.appendingPathComponent("planted-\(tag).png").path, withDestinationPath: victim.path)
        for name in ["planted-\(tag).png", victim.path, player.socketPath, "../escape-\(tag).png", "cron.d", ".hidden.png"] {
            let reply = try player.request(["command": "screenshot", "path": name])
            #expect(reply["ok"] as? Bool == false, "\(name): \(replyText(reply))")
        }
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("escape-\(tag).png").path))
        // The socket still answers: it was not replaced.
        #expect(try player.status()["state"] != nil)
        #expect(player.run.terminate() == 0)
    }
}
