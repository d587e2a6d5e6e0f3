import Foundation
import Testing

/// `control.roles` end to end: the real player, and a client connecting as another user (nobody,
/// through setpriv) whose grant is `observe`: it may read the status, not steer playback, and the
/// refusal is answered and logged with its credentials.
@Suite(.serialized) struct SocketRolesCLITests {
    static let client = """
        import json, socket, sys
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(sys.argv[1])
        replies = s.makefile("rb")
        for line in sys.argv[2:]:
            s.sendall(line.encode() + b"\\n")
            while True:
                answer = json.loads(replies.readline())
                if "ok" in answer:
                    print(json.dumps(answer)); break
        """

    @Test func anObserverMayReadTheStatusButNotPause() throws {
        let media = try PlayCommandTests.workspace.get()
        let folder = try CLIFixtures.workspace(prefix: "marquee-roles-cli-")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = chmod(folder.path, 0o755)
        let config = folder.appendingPathComponent("roles.yaml").path
        try """
            playlist:
              repeat: all
              items: [\(media.appendingPathComponent("a.mp4").path)]
            control:
              roles:
                nobody: observe
                "@\(getgid())": admin
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let player = try ControlledPlayer(arguments: ["play", config, "--output", "headless:160x90"], in: folder)
        #expect(player.run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        // The socket's group (the player's), so only the role stands between nobody and a pause.
        process.arguments = ["--reuid=65534", "--regid=\(getgid())", "--clear-groups", "/usr/bin/python3", "-I", "-c", Self.client,
                             player.socketPath, #"{"id":1,"command":"pause"}"#, #"{"id":2,"command":"status"}"#]
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let replies = text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        try #require(replies.count == 2, "\(text)")
        #expect(replies[0]["ok"] as? Bool == false, "\(text)")
        #expect(replies[0]["error"] as? String == "pause needs the control role; this client has observe", "\(text)")
        #expect(replies[1]["ok"] as? Bool == true && replies[1]["state"] as? String == "playing", "\(text)")

        // The test's own connection (root, the player's user) is admin whatever the grants say.
        #expect(try player.request(["command": "pause"])["ok"] as? Bool == true)
        #expect(player.run.waitForEvents { $0.contains { $0["event"] as? String == "playbackStateChanged" && $0["state"] as? String == "paused" } })
        #expect(try player.request(["command": "quit"])["ok"] as? Bool == true)
        #expect(player.run.waitForExit(seconds: 20) == 0)
        let stderr = player.run.standardError()
        #expect(stderr.contains(", role observe)"), "\(stderr)")
        #expect(stderr.contains("control: refused pause from client") && stderr.contains("(uid 65534, pid") && stderr.contains("it needs the control role, the client has observe"), "\(stderr)")
        let commands = player.run.events().filter { $0["event"] as? String == "command" }.map { $0["command"] as? String ?? "" }
        #expect(commands == ["pause", "quit"], "\(commands)")
    }
}
