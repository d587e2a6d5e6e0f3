import Foundation
import Synchronization
import MarqueeCore
import Testing
@testable import MarqueeControl

extension ControlSocketTests {
    @Suite struct Fuzz {
        /// Set MARQUEE_FUZZ_SEED to replay a run; the seed is printed either way.
        @Test func randomBytesFromSeveralClientsNeverBringTheServerDown() throws {
            let seed = ProcessInfo.processInfo.environment["MARQUEE_FUZZ_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
            print("control socket fuzz seed: \(seed) (MARQUEE_FUZZ_SEED=\(seed) replays it)")
            var limits = ControlSocketServer.Limits()
            limits.maxLineBytes = 4096
            limits.maxQueuedBytes = 128 * 1024
            let fixture = try ControlSocketFixture(limits: limits)
            defer { fixture.stop() }

            let clients = 4
            let errors = Mutex<[String]>([])
            let done = DispatchGroup()
            for index in 0..<clients {
                done.enter()
                let thread = Thread {
                    defer { done.leave() }
                    var generator = SeededRandom(seed: seed &+ UInt64(index))
                    do {
                        let client = try ControlSocketClient(path: fixture.path)
                        defer { client.close() }
                        // Each kind once for sure, then a random mix.
                        var chunks: [[UInt8]] = [[0xC3, 0x28, 0xFF, 0xFE, 0xED, 0xA0, 0x80, 0xC0, 0xAF, 0x0A], [0, 0, 0x41, 0, 0x0A],
                                                 [UInt8](repeating: 0x78, count: 50_000) + [0x0A]]
                        for _ in 0..<150 { chunks.append(Self.randomChunk(&generator)) }
                        for chunk in chunks { try client.write(chunk) }
                    } catch let error as ControlSocketError where error.code == EPIPE || error.code == ECONNRESET {
                        // Cut off for reading none of its echoes: an outcome the server may choose.
                    } catch {
                        errors.withLock { $0.append("fuzz client \(index): \(error)") }
                    }
                }
                thread.start()
            }
            #expect(done.wait(timeout: .now() + 60) == .success)
            #expect(errors.withLock { $0 } == [])
            #expect(waitUntil(10) { fixture.server.clientCount == 0 })

            let inputs = fixture.inputs.map(\.1)
            #expect(inputs.contains(.lineTooLong(limit: 4096)))
            #expect(inputs.contains { if case .line(let text) = $0 { text.contains("\u{FFFD}") } else { false } })
            #expect(inputs.contains(.line("\0\0A\0")))
            #expect(inputs.allSatisfy { if case .line(let text) = $0 { text.utf8.count <= 4096 * 3 } else { true } })

            // Still up, still answering.
            let client = try ControlSocketClient(path: fixture.path)
            defer { client.close() }
            try client.send("still here")
            #expect(try client.readLine(timeout: 5) == "still here")
        }

        static func randomChunk(_ generator: inout SeededRandom) -> [UInt8] {
            func count(_ upTo: UInt64) -> Int { Int(generator.next() % upTo) + 1 }
            switch generator.next() % 6 {
            case 0: return (0..<count(2000)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            case 1: return [UInt8](repeating: 0, count: count(500))
            case 2: return [UInt8](repeating: 0x0A, count: count(500))
            case 3: return (0..<count(100_000)).map { _ in UInt8(truncatingIfNeeded: generator.next() | 0x80) }  // no "\n"
            case 4: return [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]][Int(generator.next() % 5)] + [0x0A]
            default: return Array("{\"command\":[\"get_property\",\"pause\"]}\r\n".utf8)
            }
        }
    }
}
