import Foundation
import Synchronization
import Testing
@testable import MarqueeControl

extension ControlSocketTests {
    @Suite struct ConcurrentClients {
        @Test func aHundredClientsAtOnceAreAllAnswered() throws {
            let fixture = try ControlSocketFixture(recordInputs: false)
            defer { fixture.stop() }
            let clients = 100, requests = 20
            let answered = Atomic<Int>(0)
            let failures = Mutex<[String]>([])
            let go = DispatchSemaphore(value: 0)
            let done = DispatchGroup()
            for index in 0..<clients {
                done.enter()
                let thread = Thread {
                    defer { done.leave() }
                    do {
                        let client = try ControlSocketClient(path: fixture.path)
                        defer { client.close() }
                        go.wait()
                        for request in 0..<requests {
                            let line = "client \(index) request \(request)"
                            try client.send(line)
                            let reply = try client.readLine(timeout: 10)
                            if reply == line { answered.add(1, ordering: .relaxed) } else { failures.withLock { $0.append("\(line) → \(reply ?? "end")") } }
                        }
                    } catch {
                        failures.withLock { $0.append("client \(index): \(error)") }
                    }
                }
                thread.start()
            }
            // All connected at once before any sends.
            let allConnected = waitUntil(10) { fixture.server.clientCount == clients }
            for _ in 0..<clients { go.signal() }
            #expect(allConnected)
            #expect(done.wait(timeout: .now() + 60) == .success)
            #expect(failures.withLock { $0 } == [])
            #expect(answered.load(ordering: .relaxed) == clients * requests)
            #expect(waitUntil(5) { fixture.server.clientCount == 0 })
        }
    }
}
