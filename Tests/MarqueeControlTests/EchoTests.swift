import Foundation
import Testing
@testable import MarqueeControl

extension ControlSocketTests {
    @Suite struct Echo {
        @Test func linesComeBackWholeWhateverPiecesTheyAreSentIn() throws {
            let fixture = try ControlSocketFixture()
            defer { fixture.stop() }
            let client = try ControlSocketClient(path: fixture.path)
            defer { client.close() }

            for request in [#"{"command":["get_property","pause"]}"#, "second", "third line with spaces"] {
                try client.send(request)
                #expect(try client.readLine(timeout: 5) == request)
            }
            // Half a line, a pause long enough for the server to read it alone, then the rest.
            try client.write(Array("split ac".utf8))
            usleep(50_000)
            try client.write(Array("ross writes\n".utf8))
            #expect(try client.readLine(timeout: 5) == "split across writes")
            // "\r\n" endings lose the "\r"; several lines in one write come back in order.
            try client.write(Array("crlf\r\nnext\n\r\n".utf8))
            #expect(try client.readLine(timeout: 5) == "crlf")
            #expect(try client.readLine(timeout: 5) == "next")
            #expect(try client.readLine(timeout: 5) == "")
            #expect(fixture.inputs.map(\.1).suffix(3) == [.line("crlf"), .line("next"), .line("")])
        }

        @Test func peersAreNumberedAndLoggedWithTheirCredentials() throws {
            let fixture = try ControlSocketFixture()
            defer { fixture.stop() }
            let first = try ControlSocketClient(path: fixture.path)
            let second = try ControlSocketClient(path: fixture.path)
            try first.send("a")
            try second.send("b")
            _ = try first.readLine(timeout: 5)
            _ = try second.readLine(timeout: 5)
            let peers = fixture.peers
            try #require(peers.count == 2)
            #expect(peers[1].id > peers[0].id)
            #expect(peers.allSatisfy { $0.pid == getpid() && $0.uid == getuid() && $0.gid == getgid() })
            #expect(peers[0].description == "client \(peers[0].id) (uid \(getuid()), pid \(getpid()))")
            #expect(fixture.logs.contains("control: listening on \(fixture.path)"))
            #expect(fixture.logs.contains("control: client \(peers[0].id) connected (uid \(getuid()), pid \(getpid()), role admin)"))
            first.close()
            #expect(waitUntil(5) { fixture.logs.contains("control: \(peers[0]) disconnected") })
            second.close()
            #expect(waitUntil(5) { fixture.server.clientCount == 0 })
        }
    }
}
