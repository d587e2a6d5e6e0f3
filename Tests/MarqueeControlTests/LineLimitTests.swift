import Foundation
import MarqueeCore
import Testing
@testable import MarqueeControl

extension ControlSocketTests {
    @Suite struct LineLimit {
        @Test func aMegabyteLineIsReportedOnceAndTheConnectionGoesOn() throws {
            let fixture = try ControlSocketFixture()
            defer { fixture.stop() }
            let client = try ControlSocketClient(path: fixture.path)
            defer { client.close() }

            // In pieces, so the server sees it pass the limit over many reads.
            let huge = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
            for start in stride(from: 0, to: huge.count, by: 100_000) {
                try client.write(Array(huge[start..<min(start + 100_000, huge.count)]))
            }
            try client.write(Array("\n".utf8))
            try client.send("normal")
            #expect(try client.readLine(timeout: 5) == "too long 65536")
            #expect(try client.readLine(timeout: 5) == "normal")
            #expect(fixture.inputs.map(\.1) == [.lineTooLong(limit: 65536), .line("normal")])
        }

        @Test func aLineOfExactlyTheLimitPasses() throws {
            var limits = ControlSocketServer.Limits()
            limits.maxLineBytes = 16
            let fixture = try ControlSocketFixture(limits: limits)
            defer { fixture.stop() }
            let client = try ControlSocketClient(path: fixture.path)
            defer { client.close() }
            try client.write(Array("0123456789abcdef\r\n0123456789abcdefg\nok\n".utf8))
            #expect(try client.readLine(timeout: 5) == "0123456789abcdef")
            #expect(try client.readLine(timeout: 5) == "too long 16")
            #expect(try client.readLine(timeout: 5) == "ok")
        }

        /// Whatever pieces the bytes come in, the same lines come out.
        @Test func theLineBufferIgnoresHowTheBytesAreCut() {
            var generator = SeededRandom(seed: 7)
            for _ in 0..<200 {
                let alphabet: [UInt8] = [0x61, 0x0A, 0x0D, 0x00, 0xFF, 0xC3]
                let bytes = (0..<Int(generator.next() % 300)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
                func lines(cutEvery cut: Int) -> [ControlSocketInput] {
                    var buffer = ControlLineBuffer(maxLineBytes: 20)
                    var inputs: [ControlSocketInput] = []
                    for start in stride(from: 0, to: bytes.count, by: cut) {
                        bytes[start..<min(start + cut, bytes.count)].withUnsafeBytes { buffer.append($0, into: &inputs) }
                    }
                    buffer.finish(into: &inputs)
                    return inputs
                }
                let whole = lines(cutEvery: max(1, bytes.count))
                #expect(lines(cutEvery: 1) == whole)
                #expect(lines(cutEvery: 7) == whole)
            }
        }
    }
}
