import Foundation
import Glibc
import Testing
@testable import MarqueeControl

extension ControlSocketTests {
    @Suite struct Lifecycle {
        @Test func aConnectionPastMaxClientsIsToldWhyAndClosed() throws {
            var limits = ControlSocketServer.Limits()
            limits.maxClients = 2
            let fixture = try ControlSocketFixture(limits: limits)
            defer { fixture.stop() }
            let first = try ControlSocketClient(path: fixture.path)
            let second = try ControlSocketClient(path: fixture.path)
            #expect(waitUntil(5) { fixture.server.clientCount == 2 })
            let third = try ControlSocketClient(path: fixture.path)
            #expect(try third.readLine(timeout: 5) == #"{"ok":false,"error":"too many clients (2)"}"#)
            #expect(try third.readLine(timeout: 5) == nil)
            // Logged on the loop's thread once it has closed the connection: maybe just after the client saw it end.
            let refusal = "control: refused a connection (uid \(getuid()), pid \(getpid())): too many clients (2)"
            #expect(waitUntil(5) { fixture.logs.warnings() == [refusal] }, "\(fixture.logs.warnings())")
            #expect(fixture.peers.count == 2)
            // A slot that frees up is taken again.
            first.close()
            #expect(waitUntil(5) { fixture.server.clientCount == 1 })
            let fourth = try ControlSocketClient(path: fixture.path)
            try fourth.send("in")
            #expect(try fourth.readLine(timeout: 5) == "in")
            second.close()
        }

        @Test func sendAndCloseWritesTheLineThenEndsTheConnection() throws {
            let fixture = try ControlSocketFixture()
            defer { fixture.stop() }
            let client = try ControlSocketClient(path: fixture.path)
            try client.send("hello")
            #expect(try client.readLine(timeout: 5) == "hello")
            let peer = try #require(fixture.peers.first)
            let farewell = #"{"ok":false,"error":"bye"}"#
            let big = String(repeating: "b", count: 3 << 20)  // more than the kernel buffers at once
            fixture.server.send(big, to: peer.id)
            fixture.server.sendAndClose(farewell, to: peer.id)
            fixture.server.send("after the end", to: peer.id)  // ignored
            #expect(try client.readLine(timeout: 5) == big)
            #expect(try client.readLine(timeout: 5) == farewell)
            #expect(try client.readLine(timeout: 5) == nil)
            #expect(waitUntil(5) { fixture.server.clientCount == 0 })
            #expect(fixture.logs.contains("control: \(peer) disconnected"))
        }

        @Test func disconnectDropsTheClient() throws {
            let fixture = try ControlSocketFixture()
            defer { fixture.stop() }
            let client = try ControlSocketClient(path: fixture.path)
            try client.send("hello")
            #expect(try client.readLine(timeout: 5) == "hello")
            let peer = try #require(fixture.peers.first)
            fixture.server.disconnect(peer.id)
            #expect(try client.readLine(timeout: 5) == nil)
            #expect(waitUntil(5) { fixture.server.clientCount == 0 })
            fixture.server.send("to nobody", to: peer.id)  // unknown now: ignored
            fixture.server.disconnect(424_242)
        }

        /// `echo '{…}' | socat - UNIX:…` shuts down its writing side and waits for the answer.
        @Test func aHalfClosedClientStillGetsALateReply() throws {
            let folder = try ControlSocketFixture.makeFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let loop = try startedLoop()
            defer { loop.stop() }
            let box = ServerBox()
            let logs = LogRecorder()
            let server = try ControlSocketServer(path: folder + "/s.sock", loop: loop, log: logs.log, onInput: { peer, input in
                guard case .line(let text) = input else { return }
                // Answered from another thread a little later, as a command's completion is.
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { box.server?.send("late: \(text)", to: peer.id) }
            })
            box.server = server
            server.start()
            defer { server.stop() }
            let client = try ControlSocketClient(path: server.path)
            try client.write(Array("last words without newline".utf8))
            client.finishSending()
            #expect(try client.readLine(timeout: 5) == "late: last words without newline")
            client.close()
            #expect(waitUntil(5) { server.clientCount == 0 })
        }

        @Test func aHalfClosedClientThatReadsNothingIsLetGoAfterTheGrace() throws {
            var limits = ControlSocketServer.Limits()
            limits.halfClosedGrace = 0.3
            let fixture = try ControlSocketFixture(limits: limits)
            defer { fixture.stop() }
            let client = try ControlSocketClient(path: fixture.path)
            defer { client.close() }
            #expect(waitUntil(5) { fixture.server.clientCount == 1 })
            client.finishSending()
            #expect(waitUntil(0.15) { fixture.server.clientCount == 0 } == false)
            #expect(waitUntil(5) { fixture.server.clientCount == 0 })
        }

        /// `quit` is answered, then acts: a reply queued just before the server stops (from another
        /// thread, as the player's shutdown stops it) still reaches the client before it is closed.
        @Test func aReplyQueuedJustBeforeStoppingIsDelivered() throws {
            let folder = try ControlSocketFixture.makeFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let loop = try startedLoop()
            defer { loop.stop() }
            let box = ServerBox()
            let server = try ControlSocketServer(path: folder + "/s.sock", loop: loop, log: { _, _ in }, onInput: { peer, input in
                guard case .line = input else { return }
                box.server?.send(#"{"ok":true}"#, to: peer.id)
                DispatchQueue.global().async { box.server?.stop() }
            })
            box.server = server
            server.start()
            let client = try ControlSocketClient(path: server.path)
            defer { client.close() }
            try client.send(#"{"command":"quit"}"#)
            #expect(try client.readLine(timeout: 5) == #"{"ok":true}"#)
            #expect(try client.readLine(timeout: 5) == nil)
        }

        /// A "quit" command handled inside onInput stops the server from its own thread.
        @Test func stopFromACallbackReturnsAtOnce() throws {
            let folder = try ControlSocketFixture.makeFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let loop = try startedLoop()
            defer { loop.stop() }
            let box = ServerBox()
            let server = try ControlSocketServer(path: folder + "/s.sock", loop: loop, log: { _, _ in }, onInput: { _, _ in
                let started = Date()
                box.server?.stop()
                #expect(Date().timeIntervalSince(started) < 0.5)
            })
            box.server = server
            server.start()
            let client = try ControlSocketClient(path: server.path)
            try client.send("quit")
            #expect(try client.readLine(timeout: 5) == nil)
            #expect(!FileManager.default.fileExists(atPath: server.path))
        }
    }
}
