import Foundation
import Glibc
@testable import MarqueeCore
import Synchronization
import Testing
@testable import MarqueeControl

extension ControlSocketTests {
    /// The server as sources on a control-plane loop it is given: no thread of its own, each
    /// source with its stop rule, `send` from any thread never waiting.
    @Suite struct LoopSources {
        /// The names of the sources registered on `loop` now.
        static func sources(on loop: ControlPlaneLoop) -> [String] {
            loop.state.withLock { $0.sources.values.map(\.name) }.sorted()
        }

        static func serverSources(on loop: ControlPlaneLoop) -> [String] {
            sources(on: loop).filter { $0.hasPrefix("control") }
        }

        /// What the callbacks saw, and on which thread.
        final class Calls: Sendable {
            let lines = Mutex<[String]>([])
            let offLoop = Mutex<[String]>([])
            /// Set once `stop` has returned: a callback after it is a failure.
            let stopReturned = Atomic<Bool>(false)
            let afterStop = Mutex<[String]>([])

            func record(_ what: String, onLoop: Bool) {
                lines.withLock { $0.append(what) }
                if !onLoop { offLoop.withLock { $0.append(what) } }
                if stopReturned.load(ordering: .sequentiallyConsistent) { afterStop.withLock { $0.append(what) } }
            }

            var all: [String] { lines.withLock { $0 } }
        }

        static func server(at path: String, on loop: ControlPlaneLoop, calls: Calls, logs: LogRecorder,
                           limits: ControlSocketServer.Limits = .init()) throws -> ControlSocketServer {
            let box = ServerBox()
            let server = try ControlSocketServer(
                path: path, loop: loop, limits: limits, log: logs.log,
                onConnect: { calls.record("connect \($0.id)", onLoop: loop.isOnLoopThread) },
                onInput: { peer, input in
                    calls.record("input \(peer.id)", onLoop: loop.isOnLoopThread)
                    if case .line(let text) = input { box.server?.send(text, to: peer.id) }
                },
                onDisconnect: { calls.record("disconnect \($0.id)", onLoop: loop.isOnLoopThread) })
            box.server = server
            return server
        }

        @Test func everyCallbackRunsOnTheLoopsThread() throws {
            let folder = try ControlSocketFixture.makeFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let loop = try startedLoop()
            defer { loop.stop() }
            let calls = Calls(), logs = LogRecorder()
            let server = try Self.server(at: folder + "/s.sock", on: loop, calls: calls, logs: logs)
            server.start()
            defer { server.stop() }
            let client = try ControlSocketClient(path: server.path)
            try client.send("hello")
            #expect(try client.readLine(timeout: 5) == "hello")
            client.close()
            #expect(waitUntil(5) { server.clientCount == 0 })
            #expect(calls.all.map { $0.split(separator: " ")[0] } == ["connect", "input", "disconnect"])
            #expect(calls.offLoop.withLock { $0 } == [], "callbacks off the loop's thread")
            // The listener and the deadline timer; the client's source has ended with it.
            #expect(Self.serverSources(on: loop) == ["control \(server.path)", "control deadlines \(server.path)"])
        }

        /// `stop` from another thread, with clients connected (one half-closed, waiting only to write)
        /// and another thread sending meanwhile: once it returns,
        /// no source of the server is left on the loop, every client was told, and no callback runs.
        @Test func stopFromAnotherThreadLeavesNoSourceAndNoCallbackAfter() throws {
            let folder = try ControlSocketFixture.makeFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let loop = try startedLoop()
            defer { loop.stop() }
            #expect(Self.sources(on: loop) == [])
            let calls = Calls(), logs = LogRecorder()
            let server = try Self.server(at: folder + "/s.sock", on: loop, calls: calls, logs: logs)
            server.start()
            let clients = try (0..<3).map { _ in try ControlSocketClient(path: server.path) }
            defer { clients.forEach { $0.close() } }
            for (index, client) in clients.enumerated() {
                try client.send("hi \(index)")
                #expect(try client.readLine(timeout: 5) == "hi \(index)")
            }
            let lingering = try ControlSocketClient(path: server.path)
            defer { lingering.close() }
            lingering.finishSending()
            #expect(waitUntil(5) { server.clientCount == 4 && Self.serverSources(on: loop).count == 6 },
                    "the listener, the timer and four clients: \(Self.serverSources(on: loop))")

            let peers = calls.all.filter { $0.hasPrefix("connect ") }.compactMap { Int($0.dropFirst(8)) }
            let sending = Atomic<Bool>(true)
            let sender = Thread {
                var count = 0
                while sending.load(ordering: .relaxed) {
                    for peer in peers { server.send("event \(count)", to: peer) }
                    count += 1
                    usleep(100)  // well below what would overflow a client that reads nothing
                }
            }
            sender.start()
            usleep(20_000)
            let stopped = DispatchSemaphore(value: 0)
            let leftAtReturn = Mutex<[String]?>(nil)
            Thread {
                server.stop()
                calls.stopReturned.store(true, ordering: .sequentiallyConsistent)
                leftAtReturn.withLock { $0 = Self.serverSources(on: loop) }
                stopped.signal()
            }.start()
            #expect(stopped.wait(timeout: .now() + 5) == .success)
            #expect(leftAtReturn.withLock { $0 } == [])
            // The clients keep talking and the sender keeps sending: nothing reaches a callback.
            for client in clients { try? client.send("after") }
            usleep(200_000)
            sending.store(false, ordering: .relaxed)
            #expect(Self.serverSources(on: loop) == [])
            #expect(calls.afterStop.withLock { $0 } == [])
            #expect(calls.all.filter { $0.hasPrefix("disconnect ") }.count == 4)
            #expect(logs.all.filter { $0.text.hasSuffix("disconnected: the control socket is closing") }.count == 4)
            #expect(server.clientCount == 0)
            #expect(!FileManager.default.fileExists(atPath: server.path))
            #expect(calls.offLoop.withLock { $0 } == [])
        }

        /// Another thread queues 3 MB for a client that reads nothing meanwhile: every send returns
        /// without waiting for it. That is more than the kernel's socket buffers hold, so the rest
        /// waits on the client's source being writable while the client then reads slowly; the
        /// lines arrive whole and in order.
        @Test func sendsFromAnotherThreadToASlowReaderArriveInOrder() throws {
            let fixture = try ControlSocketFixture(recordInputs: false)
            defer { fixture.stop() }
            let client = try ControlSocketClient(path: fixture.path)
            defer { client.close() }
            try client.send("start")
            #expect(try client.readLine(timeout: 5) == "start")
            let peer = try #require(fixture.peers.first)
            let count = 3000
            let padding = String(repeating: "p", count: 1000)
            let sent = DispatchSemaphore(value: 0)
            Thread {
                for index in 0..<count { fixture.server.send("line \(index) \(padding)", to: peer.id) }
                sent.signal()
            }.start()
            #expect(sent.wait(timeout: .now() + 10) == .success, "a send waited for the client")
            var received = 0
            var outOfOrder: [String] = []
            while received < count, let line = try client.readLine(timeout: 5) {
                if line != "line \(received) \(padding)" { outOfOrder.append(String(line.prefix(20))) }
                received += 1
                if received % 100 == 0 { usleep(5000) }  // a slow reader
            }
            #expect(received == count)
            #expect(outOfOrder.isEmpty, "\(outOfOrder.prefix(3))")
            #expect(fixture.logs.warnings() == [])
        }

        /// A half-closed client keeps its source, waiting only to write and for its hang-up; when it then hangs
        /// up for good it is closed at once, not after the grace.
        @Test func aHalfClosedClientThatHangsUpIsClosedBeforeTheGrace() throws {
            var limits = ControlSocketServer.Limits()
            limits.halfClosedGrace = 30
            let fixture = try ControlSocketFixture(limits: limits)
            defer { fixture.stop() }
            let client = try ControlSocketClient(path: fixture.path)
            try client.send("one")
            #expect(try client.readLine(timeout: 5) == "one")
            let peer = try #require(fixture.peers.first)
            client.finishSending()
            // It keeps its source, which no longer waits to read the end of file: not called again
            // and again while the client lingers half-closed.
            Thread.sleep(forTimeInterval: 0.5)
            let name = "control client \(peer.id)"
            #expect(Self.serverSources(on: fixture.loop).contains(name))
            let calls = fixture.loop.state.withLock { $0.sources.values.first { $0.name == name }?.calls ?? 0 }
            #expect(calls <= 3, "\(calls) calls")
            #expect(fixture.server.clientCount == 1)
            // A late reply still reaches it.
            fixture.server.send("late", to: peer.id)
            #expect(try client.readLine(timeout: 5) == "late")
            let closed = Date()
            client.close()
            #expect(waitUntil(5) { fixture.server.clientCount == 0 })
            #expect(Date().timeIntervalSince(closed) < 1)
            #expect(fixture.logs.all.last?.text == "control: \(peer) disconnected")
        }

        /// EMFILE from accept pauses accepting for 0.1 s (the listener's source waits for nothing
        /// meanwhile) and the timer resumes it; the waiting client is then served.
        @Test func acceptingPausesAfterAFailureAndTheTimerResumesIt() throws {
            let faults = SystemCallFaults(["accept4": [EMFILE]])
            // The loop's thread takes the faults of the task that starts it.
            let loop = try SystemCall.$faults.withValue(faults) { try startedLoop() }
            defer { loop.stop() }
            let fixture = try ControlSocketFixture(loop: loop)
            defer { fixture.stop() }
            let started = Date()
            let client = try ControlSocketClient(path: fixture.path)
            defer { client.close() }
            try client.send("patience")
            #expect(try client.readLine(timeout: 5) == "patience")
            #expect(Date().timeIntervalSince(started) >= 0.09)
            #expect(faults.remaining.isEmpty)
            #expect(fixture.logs.warnings() == ["control: cannot accept a connection (Too many open files); trying again in 0.1 s"])
        }

        /// A listener the loop cannot watch ends at once with one warning, its timer with it.
        @Test func aListenerTheLoopCannotWatchStopsWithOneWarning() throws {
            let folder = try ControlSocketFixture.makeFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let loop = try startedLoop()
            defer { loop.stop() }
            let calls = Calls(), logs = LogRecorder()
            let server = try Self.server(at: folder + "/s.sock", on: loop, calls: calls, logs: logs)
            let faults = SystemCallFaults(["epoll_ctl": [ENOMEM]])
            SystemCall.$faults.withValue(faults) { server.start() }
            #expect(faults.remaining.isEmpty)
            #expect(logs.warnings() == ["control: cannot wait for connections (epoll_ctl control \(server.path): Cannot allocate memory (errno 12)); the control socket stops"])
            #expect(waitUntil(5) { Self.serverSources(on: loop) == [] }, "\(Self.serverSources(on: loop))")
            server.stop()
            #expect(!FileManager.default.fileExists(atPath: server.path))
            #expect(calls.all == [])
        }

        /// A client the loop cannot watch is closed with the reason; the next one is served.
        @Test func aClientTheLoopCannotWatchIsClosed() throws {
            let faults = SystemCallFaults(["epoll_ctl": [ENOMEM]])
            let loop = try SystemCall.$faults.withValue(faults) { try startedLoop() }
            defer { loop.stop() }
            let fixture = try ControlSocketFixture(loop: loop)
            defer { fixture.stop() }
            let refused = try ControlSocketClient(path: fixture.path)
            defer { refused.close() }
            #expect(try refused.readLine(timeout: 5) == nil)
            let peer = try #require(fixture.peers.first)
            #expect(waitUntil(5) { fixture.logs.contains("control: \(peer) disconnected: cannot allocate memory") })
            let client = try ControlSocketClient(path: fixture.path)
            defer { client.close() }
            try client.send("next")
            #expect(try client.readLine(timeout: 5) == "next")
        }

        /// The loop stopping (the process quitting) ends the server's sources: each client is told
        /// and closed, and a later `stop` still removes the socket file.
        @Test func theLoopStoppingClosesEveryClient() throws {
            let folder = try ControlSocketFixture.makeFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let loop = try startedLoop()
            let calls = Calls(), logs = LogRecorder()
            let server = try Self.server(at: folder + "/s.sock", on: loop, calls: calls, logs: logs)
            server.start()
            let client = try ControlSocketClient(path: server.path)
            defer { client.close() }
            try client.send("hello")
            #expect(try client.readLine(timeout: 5) == "hello")
            loop.stop()
            #expect(try client.readLine(timeout: 5) == nil)
            #expect(server.clientCount == 0)
            #expect(calls.all.last?.hasPrefix("disconnect ") == true)
            #expect(logs.contains("disconnected: the control socket is closing"))
            #expect(logs.warnings() == [])
            server.stop()
            #expect(!FileManager.default.fileExists(atPath: server.path))
        }
    }
}
