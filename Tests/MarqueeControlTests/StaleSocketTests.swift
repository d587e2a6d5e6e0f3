import Foundation
import Testing
@testable import MarqueeControl

extension ControlSocketTests {
    @Suite struct StaleSocket {
        @Test func aLivePlayerIsNeverReplaced() throws {
            let fixture = try ControlSocketFixture()
            defer { fixture.stop() }
            #expect {
                _ = try ControlSocketServer(path: fixture.path, loop: fixture.loop, log: { _, _ in }, onInput: { _, _ in })
            } throws: { error in
                (error as? ControlSocketError)?.description == "\(fixture.path): another player is listening there"
            }
            // The first still answers there.
            let client = try ControlSocketClient(path: fixture.path)
            try client.send("still mine")
            #expect(try client.readLine(timeout: 5) == "still mine")
        }

        @Test func aStaleSocketFileIsReplaced() throws {
            let folder = try ControlSocketFixture.makeFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/control.sock"
            try makeStaleSocket(at: path)
            let loop = try startedLoop()
            defer { loop.stop() }
            let logs = LogRecorder()
            let box = ServerBox()
            let server = try ControlSocketServer(path: path, loop: loop, log: logs.log, onInput: { peer, input in
                if case .line(let text) = input { box.server?.send(text, to: peer.id) }
            })
            box.server = server
            server.start()
            defer { server.stop() }
            let client = try ControlSocketClient(path: path)
            try client.send("fresh")
            #expect(try client.readLine(timeout: 5) == "fresh")
        }

        @Test func aMissingFolderOrSomethingElseAtThePathThrows() throws {
            let loop = try startedLoop()
            defer { loop.stop() }
            #expect {
                _ = try ControlSocketServer(path: "/nope/x.sock", loop: loop, log: { _, _ in }, onInput: { _, _ in })
            } throws: { error in
                (error as? ControlSocketError)?.description == "/nope/x.sock: cannot bind (No such file or directory)"
            }
            let folder = try ControlSocketFixture.makeFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let file = folder + "/notes.txt"
            _ = FileManager.default.createFile(atPath: file, contents: Data("keep me".utf8))
            #expect {
                _ = try ControlSocketServer(path: file, loop: loop, log: { _, _ in }, onInput: { _, _ in })
            } throws: { error in
                (error as? ControlSocketError)?.description == "\(file): something other than a socket is there"
            }
            #expect(FileManager.default.contents(atPath: file) == Data("keep me".utf8))
            let long = folder + "/" + String(repeating: "n", count: 120)
            #expect(throws: ControlSocketError.self) {
                _ = try ControlSocketServer(path: long, loop: loop, log: { _, _ in }, onInput: { _, _ in })
            }
        }
    }

    @Suite struct ClientErrors {
        @Test func noSocketFileAndAStaleOneSayNoPlayer() throws {
            let folder = try ControlSocketFixture.makeFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/control.sock"
            #expect {
                _ = try ControlSocketClient(path: path)
            } throws: { error in
                (error as? ControlSocketError)?.description == "no player at \(path): no such file"
            }
            try makeStaleSocket(at: path)
            #expect {
                _ = try ControlSocketClient(path: path)
            } throws: { error in
                (error as? ControlSocketError)?.description == "no player at \(path): connection refused"
            }
        }

        @Test func aReplyThatNeverComesTimesOut() throws {
            // A server whose onInput answers nothing.
            let folder = try ControlSocketFixture.makeFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let loop = try startedLoop()
            defer { loop.stop() }
            let server = try ControlSocketServer(path: folder + "/s.sock", loop: loop, log: { _, _ in }, onInput: { _, _ in })
            server.start()
            defer { server.stop() }
            let client = try ControlSocketClient(path: server.path)
            try client.send("anyone?")
            let started = Date()
            #expect {
                _ = try client.readLine(timeout: 0.2)
            } throws: { error in
                (error as? ControlSocketError)?.description == "\(server.path): no reply within 0.2 s"
            }
            #expect(Date().timeIntervalSince(started) >= 0.19)
        }
    }
}
