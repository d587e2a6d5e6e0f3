import Foundation
import MarqueeCore
@testable import MarqueeMedia
import MarqueeTestSupport
import Testing

/// A local source may only use `file`, a remote one only `http,https,tcp,tls`, and FFmpeg enforces
/// that on every nested open: playlists, their segments, redirects. Each refusal below is paired with
/// a control showing the same media plays when it stays within its whitelist, and the evidence that
/// nothing was touched comes from outside FFmpeg: inotify for local files, the server's request log
/// for the network.
@Suite struct ProtocolWhitelistTests {
    @Test func eachSourceCarriesItsWhitelistIntoFFmpeg() throws {
        let local = try InputContainer(opening: .file(path: FixtureMedia.path(.videoOnly)))
        #expect(local.protocolWhitelist == "file")

        let server = try LoopbackHTTPServer(routes: ["/clip.mp4": .file(try Data(contentsOf: FixtureMedia.url(.videoOnly)), contentType: "video/mp4")])
        defer { server.stop() }
        let remote = try InputContainer(opening: .remote(url: server.url("/clip.mp4")))
        #expect(remote.protocolWhitelist == "http,https,tcp,tls")
    }

    @Test func aRemotePlaylistCannotOpenALocalFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let segment = try scratch.copy(.mpeg2TS, as: "segment.ts")
        let watch = try FileOpenWatch(path: segment.path)
        let server = try LoopbackHTTPServer(routes: [
            "/segment.ts": .file(try Data(contentsOf: segment), contentType: "video/mp2t"),
        ])
        defer { server.stop() }
        server.setRoute("/local-segment.m3u8", .file(Self.playlist(segment: segment.absoluteString), contentType: Self.m3u8))
        server.setRoute("/remote-segment.m3u8", .file(Self.playlist(segment: server.url("/segment.ts")), contentType: Self.m3u8))
        _ = watch.takeOpenCount()  // the copy and the read above

        let error = try #require(throws: MediaOpenError.self) {
            try AssetProbe.asset(at: server.url("/local-segment.m3u8"))
        }

        #expect(error.reason == .protocolNotAllowed("file"))
        #expect(error.underlying?.log.contains("Protocol 'file' not on whitelist 'http,https,tcp,tls'!") == true,
                "\(error.underlying?.log ?? [])")
        #expect(watch.takeOpenCount() == 0, "FFmpeg opened the local segment")

        // Control: the same playlist with the segment over http plays.
        let asset = try AssetProbe.asset(at: server.url("/remote-segment.m3u8"))
        #expect(asset.containerName == "hls")
        #expect(asset.tracks.map(\.codecName) == ["mpeg2video", "mp2"])
        #expect(server.requestedPaths.contains("/segment.ts"))
    }

    @Test func aLocalPlaylistCannotReachTheNetwork() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let segment = try scratch.copy(.mpeg2TS, as: "segment.ts")
        let server = try LoopbackHTTPServer(routes: [
            "/segment.ts": .file(try Data(contentsOf: segment), contentType: "video/mp2t"),
        ])
        defer { server.stop() }
        let remoteSegment = try scratch.write(Self.playlist(segment: server.url("/segment.ts")), as: "remote-segment.m3u8")
        let localSegment = try scratch.write(Self.playlist(segment: "segment.ts"), as: "local-segment.m3u8")

        let error = try #require(throws: MediaOpenError.self) { try AssetProbe.asset(at: remoteSegment.path) }

        #expect(error.reason == .protocolNotAllowed("http"))
        #expect(server.requestedPaths.isEmpty, "FFmpeg asked the server for \(server.requestedPaths)")

        // Control: a local playlist of local segments plays, and the watch sees FFmpeg open the segment.
        let watch = try FileOpenWatch(path: segment.path)
        let asset = try AssetProbe.asset(at: localSegment.path)
        #expect(asset.containerName == "hls")
        #expect(watch.takeOpenCount() > 0)
    }

    @Test func aLocalConcatListCannotReachTheNetwork() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        _ = try scratch.copy(.videoOnly, as: "clip.mp4")
        let server = try LoopbackHTTPServer(routes: [
            "/clip.mp4": .file(try Data(contentsOf: FixtureMedia.url(.videoOnly)), contentType: "video/mp4"),
        ])
        defer { server.stop() }
        let remoteEntry = try scratch.write(Data("ffconcat version 1.0\nfile '\(server.url("/clip.mp4"))'\n".utf8), as: "remote.ffconcat")
        let localEntry = try scratch.write(Data("ffconcat version 1.0\nfile 'clip.mp4'\n".utf8), as: "local.ffconcat")

        // The concat demuxer is not on the demuxer whitelist (Marquee's playlist is the playlist), so
        // neither list is played, and the remote entry is never fetched.
        for list in [remoteEntry, localEntry] {
            let error = try #require(throws: MediaOpenError.self) { try AssetProbe.asset(at: list.path) }
            #expect(error.reason == .notMediaFile, "\(error)")
        }
        #expect(server.requestedPaths.isEmpty, "FFmpeg asked the server for \(server.requestedPaths)")
    }

    @Test func aRedirectToALocalFileIsNotFollowed() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let clip = try scratch.copy(.videoOnly, as: "clip.mp4")
        let watch = try FileOpenWatch(path: clip.path)
        let server = try LoopbackHTTPServer(routes: [
            "/to-file.mp4": .redirect(to: clip.absoluteString),
            "/to-http.mp4": .redirect(to: "/clip.mp4"),
            "/clip.mp4": .file(try Data(contentsOf: clip), contentType: "video/mp4"),
        ])
        defer { server.stop() }
        _ = watch.takeOpenCount()

        #expect(throws: MediaOpenError.self) { try AssetProbe.asset(at: server.url("/to-file.mp4")) }
        #expect(watch.takeOpenCount() == 0, "FFmpeg opened the local file it was redirected to")

        // Control: a redirect within http is followed.
        let asset = try AssetProbe.asset(at: server.url("/to-http.mp4"))
        #expect(asset.tracks.map(\.codecName) == ["h264"])
    }

    @Test(arguments: ["concat:", "subfile:", "data:", "pipe:", "crypto:", "tcp:", "udp:", "rtmp:", "gopher:", "file:"])
    func onlyPathsFileAndHTTPURLsParse(_ prefix: String) {
        let text = prefix + "//127.0.0.1/x"
        switch prefix {
        case "file:":
            #expect(throws: MediaOpenError(url: text, reason: .invalidURL)) { try MediaSource(parsing: text) }
        default:
            #expect(throws: MediaOpenError(url: text, reason: .unsupportedScheme(String(prefix.dropLast())))) {
                try MediaSource(parsing: text)
            }
        }
    }

    @Test func pathsAndWebURLsParse() throws {
        #expect(try MediaSource(parsing: "media/a.mp4") == .file(path: "media/a.mp4"))
        #expect(try MediaSource(parsing: "/srv/media/a:b.mp4") == .file(path: "/srv/media/a:b.mp4"))
        #expect(try MediaSource(parsing: "file:///srv/media/a%20b.mp4") == .file(path: "/srv/media/a b.mp4"))
        #expect(try MediaSource(parsing: "HTTPS://example.net/live/index.m3u8") == .remote(url: "HTTPS://example.net/live/index.m3u8"))
        // FFmpeg sees an explicit file: so a colon in a name can never select another protocol.
        #expect(MediaSource.file(path: "/srv/a:b.mp4").ffmpegURL == "file:/srv/a:b.mp4")
    }

    // MARK: Helpers

    static let m3u8 = "application/vnd.apple.mpegurl"

    static func playlist(segment: String) -> Data {
        Data("""
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-TARGETDURATION:3
            #EXT-X-MEDIA-SEQUENCE:0
            #EXTINF:2.0,
            \(segment)
            #EXT-X-ENDLIST

            """.utf8)
    }

    /// A folder of one test's own files.
    struct Scratch {
        let folder: URL

        init() throws {
            folder = try FixtureMedia.scratchFolder()
        }

        func copy(_ recipe: FixtureMedia.Recipe, as name: String) throws -> URL {
            let destination = folder.appendingPathComponent(name)
            try FileManager.default.copyItem(at: FixtureMedia.url(recipe), to: destination)
            return destination
        }

        func write(_ data: Data, as name: String) throws -> URL {
            let destination = folder.appendingPathComponent(name)
            try data.write(to: destination)
            return destination
        }

        func remove() {
            try? FileManager.default.removeItem(at: folder)
        }
    }
}
