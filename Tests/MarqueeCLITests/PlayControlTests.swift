import Foundation
import MarqueeTestSupport
import Testing

/// The command path as the CLI wires it: signals become commands logged with their source, and
/// `--input` is checked and quiet on a machine without input devices (this host has no /dev/input;
/// keys are proven in the guest by Deploy/vm/input-test.sh).
@Suite(.serialized) struct PlayControlTests {
    @Test func signalsAreCommandsLoggedWithTheirSource() throws {
        let folder = try PlayCommandTests.workspace.get()
        let run = try PlayerRun(arguments: ["play", "a.mp4", "silent.mp4", "--output", "headless:320x180", "--repeat", "all"], in: folder)
        #expect(run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        kill(run.process.processIdentifier, SIGUSR1)
        #expect(run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "itemStarted" && $0["index"] as? Int == 1 } })
        kill(run.process.processIdentifier, SIGUSR2)
        #expect(run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "playbackStateChanged" && $0["state"] as? String == "paused" } })
        #expect(run.terminate() == 0)
        let commands = run.events().filter { $0["event"] as? String == "command" }
        #expect(commands.map { "\($0["command"] ?? "") \($0["source"] ?? "") \($0["signal"] ?? "")" }
            == ["next signal SIGUSR1", "togglePlayPause signal SIGUSR2", "quit signal SIGTERM"])
        // Quitting ends the item on screen (b, paused) as userExited, then the player is stopped.
        let tail = run.events().filter { ["itemStarted", "itemEnded", "playbackStateChanged"].contains($0["event"] as? String ?? "") }.suffix(2)
        #expect(tail.first?["event"] as? String == "itemEnded" && tail.first?["index"] as? Int == 1
                && tail.first?["reason"] as? String == "userExited", "\(tail)")
        #expect(tail.last?["event"] as? String == "playbackStateChanged" && tail.last?["state"] as? String == "stopped", "\(tail)")
        let stderr = run.standardError()
        #expect(stderr.contains("info: command next from signal SIGUSR1"), "\(stderr)")
        if !FileManager.default.fileExists(atPath: "/dev/input") {
            #expect(stderr.contains("info: input: /dev/input does not exist; no keys will be read"), "\(stderr)")
        }
    }

    @Test func aFIFOInThePlaylistIsRefusedAtOnceAndTheItemAfterItPlays() throws {
        // A FIFO with no writer stands in for a hung NFS or USB path: opening it would block for good.
        let folder = try PlayCommandTests.workspace.get()
        let fifo = try TemporaryFIFO(named: "stuck.mp4")
        defer { fifo.release() }
        let run = try PlayerRun(arguments: ["play", "silent.mp4", fifo.path, "a.mp4", "--output", "headless", "--clock", "fast",
                                            "--exit-when-idle", "--repeat", "off", "--input", "none"], in: folder)
        #expect(run.waitForExit(seconds: 30) == 0)
        let stderr = run.standardError()
        #expect(stderr.contains("error: \(fifo.path): not a regular file (a FIFO)"), "\(stderr)")
        let ends = run.events().filter { $0["event"] as? String == "itemEnded" }.map { "\($0["index"] ?? "") \($0["reason"] ?? "")" }
        #expect(ends == ["0 playbackEnded", "1 playbackError", "2 playbackEnded"], "\(ends)")
    }

    @Test func sigtermWhileAnOpenIsBlockedExitsWithinTwoSeconds() throws {
        // A server that accepts and never answers: the opener is blocked in FFmpeg (its own
        // deadline is 5 s away), and SIGTERM must not wait for it.
        let server = try LoopbackHTTPServer(routes: ["/stall.mp4": .stall])
        defer { server.stop() }
        let folder = try PlayCommandTests.workspace.get()
        let run = try PlayerRun(arguments: ["play", server.url("/stall.mp4"), "--output", "headless", "--input", "none"], in: folder)
        let asked = Date().addingTimeInterval(20)
        while server.requestedPaths.isEmpty && Date() < asked { Thread.sleep(forTimeInterval: 0.02) }
        try #require(!server.requestedPaths.isEmpty, "the player never asked the server")
        Thread.sleep(forTimeInterval: 0.3)

        let start = Date()
        run.process.terminate()
        let status = run.waitForExit(seconds: 10)
        let elapsed = Date().timeIntervalSince(start)
        #expect(status == 0 || status == 1, "exit status \(status)")
        #expect(elapsed < 2, "SIGTERM took \(elapsed) s to end the process")
        #expect(run.standardError().contains("command quit from signal SIGTERM"), "\(run.standardError())")
    }

    @Test func inputNoneOpensNothingAndSaysNothing() throws {
        let folder = try PlayCommandTests.workspace.get()
        let run = try PlayerRun(arguments: ["play", "silent.mp4", "--output", "headless", "--clock", "fast", "--exit-when-idle",
                                            "--repeat", "off", "--input", "none", "--no-grab"], in: folder)
        #expect(run.waitForExit(seconds: 30) == 0)
        #expect(!run.standardError().contains("input:"), "\(run.standardError())")
    }

    @Test func inputMixingAutoWithDevicesIsRefused() throws {
        let outcome = try MarqueeProcess.run(["play", "a.mp4", "--input", "auto", "--input", "/dev/input/event3"],
                                             in: MarqueeProcess.repositoryRoot())
        #expect(outcome.status != 0)
        #expect(outcome.standardError.contains("--input takes auto, none, or device paths and names, not a mix of them"))
    }
}
