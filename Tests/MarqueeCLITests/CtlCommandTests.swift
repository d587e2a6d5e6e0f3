import Foundation
import MarqueeControl
import Testing

/// `marquee ctl` as an operator types it, against a real player.
@Suite(.serialized) struct CtlCommandTests {
    @Test func ctlSteersAPlayerAndSaysWhatWentWrong() throws {
        let folder = try PlayCommandTests.workspace.get()
        try "playlist:\n  items:\n    - url: a.mp4\n      end: 9:99\n".write(to: folder.appendingPathComponent("ctl-broken.yaml"), atomically: true, encoding: .utf8)
        let player = try ControlledPlayer(arguments: ["play", "a.mp4", "silent.mp4", "--output", "headless:160x90", "--repeat", "all"], in: folder)
        #expect(player.run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        func ctl(_ words: String...) throws -> MarqueeProcess.Outcome {
            try MarqueeProcess.run(["ctl", "--socket", player.socketPath] + words, in: folder)
        }

        let status = try ctl("status")
        #expect(status.status == 0, "\(status.standardError)")
        #expect(status.outputLines.first?.hasPrefix("state") == true && status.standardOutput.contains("playing"), "\(status.standardOutput)")
        #expect(status.outputLines.contains { $0.hasPrefix("item") && $0.contains("/2 a.mp4") }, "\(status.standardOutput)")
        let json = try ctl("status", "--json")
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect(object?["ok"] as? Bool == true && object?["itemCount"] as? Int == 2)

        #expect(try ctl("pause").status == 0)
        let seek = try ctl("seek", "0:01.2")
        #expect(seek.status == 0 && seek.standardOutput == "{\"finished\":true,\"ok\":true}\n", "\(seek.standardOutput)\(seek.standardError)")

        // `watch` prints the events it subscribed to, as --events writes them, until stopped.
        let watcher = Process()
        watcher.executableURL = try MarqueeProcess.executable()
        watcher.arguments = ["ctl", "--socket", player.socketPath, "watch", "itemStarted"]
        let output = Pipe()
        watcher.standardOutput = output
        try watcher.run()
        defer { if watcher.isRunning { watcher.terminate() } }
        let subscribed = try #require(output.fileHandleForReading.readLine())
        #expect(subscribed.contains("\"ok\":true"), "\(subscribed)")
        #expect(try ctl("next").status == 0)
        let started = try #require(output.fileHandleForReading.readLine())
        #expect(started.contains("\"event\":\"itemStarted\"") && started.contains("\"index\":1"), "\(started)")

        let shot = folder.appendingPathComponent("ctl-\(UUID().uuidString.prefix(6)).png").path
        #expect(try ctl("screenshot", "-o", shot).status == 0)
        #expect((try? Data(contentsOf: URL(fileURLWithPath: shot)).prefix(4)) == Data([0x89, 0x50, 0x4E, 0x47]))

        let refused = try ctl("setRepeat", "twice")
        #expect(refused.status == 1 && refused.standardError.contains("error: 'mode' must be one of off, one, all, shuffle, not 'twice'"), "\(refused)")
        let broken = try ctl("load", "ctl-broken.yaml")
        #expect(broken.status == 1 && broken.standardError.contains("ctl-broken.yaml rejected (1 error)"), "\(broken)")
        #expect(broken.standardError.contains("ctl-broken.yaml:4:12: error:"), "\(broken.standardError)")
        let usage = try ctl("playItem")
        #expect(usage.status == 1 && usage.standardError.contains("usage: marquee ctl playItem INDEX"), "\(usage)")
        #expect(player.run.terminate() == 0)
    }

    @Test func withNoPlayerCtlSaysSoInOneLine() throws {
        let folder = try PlayCommandTests.workspace.get()
        let missing = try MarqueeProcess.run(["ctl", "--socket", "/nonexistent/marquee.sock", "status"], in: folder)
        #expect(missing.status == 1 && missing.standardError == "error: no player at /nonexistent/marquee.sock: no such file\n", "\(missing.standardError)")
        // A socket file left by a player that is gone: nobody accepts on it.
        let stale = folder.appendingPathComponent("stale-\(UUID().uuidString.prefix(6)).sock").path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (n, byte) in stale.utf8.enumerated() { bytes[n] = byte }
        }
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        close(fd)
        #expect(bound == 0)
        let refused = try MarqueeProcess.run(["ctl", "--socket", stale, "next"], in: folder)
        #expect(refused.status == 1 && refused.standardError == "error: no player at \(stale): connection refused\n", "\(refused.standardError)")
    }
}

extension FileHandle {
    /// One line of a pipe, without its newline; nil at its end.
    func readLine() -> String? {
        var bytes: [UInt8] = []
        while true {
            let byte = readData(ofLength: 1)
            guard let first = byte.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if first == 10 { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(first)
        }
    }
}
