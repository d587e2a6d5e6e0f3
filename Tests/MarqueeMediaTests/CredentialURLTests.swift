import Foundation
import MarqueeCore
import MarqueeMedia
import MarqueeTestSupport
import Testing

/// `http://user:password@host/...` against a loopback server that asks for Basic authentication:
/// the real credentials reach the server, and no error names the password.
@Suite struct CredentialURLTests {
    private func protectedServer() throws -> LoopbackHTTPServer {
        let clip = try Data(contentsOf: FixtureMedia.url(.h264AAC))
        return try LoopbackHTTPServer(routes: [
            "/clip.mp4": .basicAuth(user: "user", password: "secret", route: .file(clip, contentType: "video/mp4")),
        ])
    }

    @Test func theRightCredentialsOpenAndDecodeTheMedia() throws {
        let server = try protectedServer()
        defer { server.stop() }
        let url = "http://user:secret@127.0.0.1:\(server.port)/clip.mp4"

        let reader = try FFmpegMediaOpener().open(url)
        #expect(reader.asset.tracks.map(\.codecName) == ["h264", "aac"])
        #expect(try reader.nextPicture() != nil)
    }

    @Test func aRefusedPasswordIsHiddenInTheError() throws {
        let server = try protectedServer()
        defer { server.stop() }
        let url = "http://user:wrong-password@127.0.0.1:\(server.port)/clip.mp4"

        let error = try #require(throws: MediaOpenError.self) { try AssetProbe.asset(at: url) }

        #expect(error.reason == .httpStatus(401))
        #expect(error.description == "http://user:***@127.0.0.1:\(server.port)/clip.mp4: server refused (HTTP 401)")
        // The player's error, built from the opener's, hides it too.
        let opened = try #require(throws: PlaybackError.self) { try FFmpegMediaOpener().open(url) }
        #expect(!opened.description.contains("wrong-password"), "\(opened)")
    }
}
