import Foundation
import MarqueeControl
import MarqueeCore
import Testing

/// What a control socket meets on a device nobody watches: junk, a megabyte line, a hundred
/// clients at once, ten thousand connections, a client that never reads. The player answers
/// what it can, cuts off what it must, and plays on without a dropped frame or a leaked descriptor.
@Suite(.serialized) struct ControlAbuseCLITests {
    @Test func junkRequestsAreAnsweredWithErrorsAndPlaybackGoesOn() throws {
        let folder = try PlayCommandTests.workspace.get()
        let player = try ControlledPlayer(arguments: ["play", "a.mp4", "silent.mp4", "--output", "headless:160x90", "--clock", "fast"], in: folder)
        #expect(player.run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        let cases: [(String, String)] = [
            ("{not json", "not JSON"),
            (#"{"command":"teleport"}"#, "unknown command 'teleport'"),
            (#"{"command":"seek","to":"soon"}"#, "'to': bad time 'soon'"),
            (#"{"command":"setVolume","volume":"loud"}"#, "'volume' must be a number"),
            (#"{"command":"playItem","index":[1]}"#, "'index' must be a whole number"),
            (String(repeating: "x", count: 1 << 20), "request longer than 65536 bytes"),
        ]
        for (line, fragment) in cases {
            let reply = try player.requestLine(line)
            #expect(reply["ok"] as? Bool == false && (reply["error"] as? String)?.contains(fragment) == true, "\(reply)")
        }
        // Random bytes and mutated requests from a second connection, then the first still works.
        let seed = UInt64.random(in: 0...UInt64.max)
        var generator = SeededRandom(seed: seed)
        let junk = try ControlSocketClient(path: player.socketPath)
        for _ in 0..<200 {
            var bytes = Array(#"{"id":1,"command":"seek","to":1.5}"#.utf8)
            for _ in 0..<3 { bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next()) }
            try junk.write(bytes + [10])
            try junk.write((0..<64).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        }
        junk.close()
        let before = player.run.events().filter { $0["event"] as? String == "frame" }.count
        #expect(try player.status()["ok"] as? Bool == true, "seed \(seed)")
        #expect(player.run.waitForEvents { $0.filter { $0["event"] as? String == "frame" }.count > before + 50 }, "seed \(seed)")
        #expect(player.run.process.isRunning)
        #expect(player.run.terminate() == 0)
    }

    @Test func aHundredClientsAndTenThousandConnectionsLeaveNothingBehindAndDropNoFrame() throws {
        let folder = try PlayCommandTests.workspace.get()
        let player = try ControlledPlayer(arguments: ["play", "a.mp4", "silent.mp4", "--output", "headless:160x90", "--clock", "fast"], in: folder)
        #expect(player.run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        let pid = player.run.process.processIdentifier
        _ = try player.status()
        let descriptorsBefore = Self.descriptorCount(pid)
        #expect(descriptorsBefore >= 3, "the listener, its wake-up pair and this client: \(descriptorsBefore)")

        // 100 clients at once, each subscribing and asking for the status 5 times. (A client that
        // never reads is cut off by the socket's own queue limit: ControlSocketTests.SlowReader.)
        let failures = Failures()
        let socketPath = player.socketPath
        let group = DispatchGroup()
        for n in 0..<100 {
            group.enter()
            // A thread each, so the hundred are connected and asking at the same time.
            Thread {
                defer { group.leave() }
                do {
                    let client = try ControlSocketClient(path: socketPath)
                    defer { client.close() }
                    try client.send(#"{"command":"subscribe","events":["itemStarted","itemEnded"]}"#)
                    for _ in 0..<5 { try client.send(#"{"id":\#(n),"command":"status"}"#) }
                    var replies = 0
                    while replies < 6, let line = try client.readLine(timeout: 60) {
                        if line.contains(#""ok":true"#) { replies += 1 }
                    }
                    if replies < 6 { failures.add("client \(n): \(replies) replies") }
                } catch {
                    failures.add("client \(n): \(error)")
                }
            }.start()
        }
        #expect(group.wait(timeout: .now() + 120) == .success)
        #expect(failures.all.isEmpty, "\(failures.all.prefix(5))")

        // 10,000 connections, each closed at once.
        for _ in 0..<10_000 {
            let client = try ControlSocketClient(path: player.socketPath)
            client.close()
        }
        _ = try player.status()
        // Each closed connection is reaped when the control-plane loop sees its hangup.
        let deadline = Date().addingTimeInterval(10)
        while Self.descriptorCount(pid) > descriptorsBefore && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(Self.descriptorCount(pid) == descriptorsBefore)

        // The virtual clock drops no frame of its own; none was dropped for the clients either.
        #expect(!player.run.events().contains { $0["event"] as? String == "frame" && $0["dropped"] as? Bool == true })
        #expect(player.run.terminate() == 0)
    }

    /// The player's open sockets: its media files open and close as items change (a whole-process
    /// count read 17 against 18 when an item's file happened to be open at the first count).
    static func descriptorCount(_ pid: Int32) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { return -1 }
        return names.filter { name in
            ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(name)")) ?? "").hasPrefix("socket:")
        }.count
    }
}

private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ failure: String) { lock.withLock { list.append(failure) } }
    var all: [String] { lock.withLock { list } }
}
