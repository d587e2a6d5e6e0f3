import Foundation
import Testing
@testable import MarqueeControl

extension ControlSocketTests {
    @Suite struct SlowReader {
        @Test func aClientThatNeverReadsIsCutOffWhileAnotherIsAnsweredPromptly() throws {
            var limits = ControlSocketServer.Limits()
            limits.maxQueuedBytes = 256 * 1024
            let fixture = try ControlSocketFixture(limits: limits, recordInputs: false)
            defer { fixture.stop() }
            let stuck = try ControlSocketClient(path: fixture.path)
            defer { stuck.close() }
            try stuck.send("who am i")
            #expect(try stuck.readLine(timeout: 5) == "who am i")
            let brisk = try ControlSocketClient(path: fixture.path)
            defer { brisk.close() }
            let stuckPeer = try #require(fixture.peers.first)

            // 32 KiB events for the client that reads nothing, between round trips of the other.
            let event = String(repeating: "e", count: 32 * 1024)
            let warning = "control: \(stuckPeer) disconnected: it read nothing while 256 KiB of replies and events waited"
            var roundTrips: [Double] = []
            var sent = 0
            let deadline = Date(timeIntervalSinceNow: 20)
            while !fixture.logs.contains(warning) && Date() < deadline {
                for _ in 0..<4 { fixture.server.send(event, to: stuckPeer.id) }
                sent += 4
                let started = Date()
                try brisk.send("ping \(sent)")
                #expect(try brisk.readLine(timeout: 5) == "ping \(sent)")
                roundTrips.append(Date().timeIntervalSince(started))
            }
            #expect(fixture.logs.warnings() == [warning])
            // Cut off only once its queue would pass the limit: at least that much (each event and
            // its newline) was sent, plus whatever the kernel's socket buffers took meanwhile.
            #expect(sent * (event.utf8.count + 1) > limits.maxQueuedBytes)
            #expect(waitUntil(5) { fixture.server.clientCount == 1 })
            // Later events for it are ignored, not queued.
            fixture.server.send(event, to: stuckPeer.id)
            #expect(fixture.server.clientCount == 1)
            // Meanwhile the other one kept getting answers promptly.
            let slowest = roundTrips.max() ?? .infinity
            print("control socket: \(roundTrips.count) round trips while a client was stuck; slowest \(String(format: "%.1f", slowest * 1000)) ms")
            #expect(roundTrips.count >= 2)
            #expect(slowest < 0.1)
            // The stuck one finds what the kernel held for it, then the end.
            var received = 0
            while let line = try stuck.readLine(timeout: 5) { received += line.utf8.count + 1 }
            #expect(received > 0 && received < sent * (event.utf8.count + 1))
        }
    }
}
