import Foundation
import MarqueeCore
import MarqueeMedia
import MarqueeTestSupport
import Synchronization
import Testing

/// Every way an item can fail to open gives one line naming the media and the cause.
@Suite struct MediaOpenErrorTests {
    @Test func aMissingFile() throws {
        let folder = try FixtureMedia.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("media/a.mp4").path

        let error = try #require(throws: MediaOpenError.self) { try AssetProbe.asset(at: path) }

        #expect(error.reason == .noSuchFile)
        #expect(error.description == "\(path): no such file")
        #expect(error.underlying == nil)  // decided before FFmpeg was asked
    }

    @Test func aRelativePathIsNamedAsWritten() throws {
        let error = try #require(throws: MediaOpenError.self) {
            try AssetProbe.asset(at: "no/such/folder/a.mp4")
        }

        #expect(error.description == "no/such/folder/a.mp4: no such file")
        #expect(error.naming("media/a.mp4").description == "media/a.mp4: no such file")
    }

    @Test func aDirectory() throws {
        let folder = try FixtureMedia.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }

        let error = try #require(throws: MediaOpenError.self) { try AssetProbe.asset(at: folder.path) }

        #expect(error.reason == .isDirectory)
        #expect(error.description == "\(folder.path): is a directory, not a media file")
    }

    @Test func aFIFOIsRefusedWithoutOpeningIt() throws {
        // A FIFO with no writer blocks open(2) for good: a refusal must come from stat alone.
        let fifo = try TemporaryFIFO()
        defer { fifo.release() }
        let outcome = Mutex<Result<Asset, MediaOpenError>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let result = Result { () throws(MediaOpenError) in try AssetProbe.asset(at: fifo.path) }
            outcome.withLock { $0 = result }
            finished.signal()
        }

        #expect(finished.wait(timeout: .now() + 2) == .success, "the probe blocked on the FIFO")
        guard case .failure(let error)? = outcome.withLock({ $0 }) else { return }
        #expect(error.reason == .notRegularFile("a FIFO"))
        #expect(error.description == "\(fifo.path): not a regular file (a FIFO)")
        #expect(error.underlying == nil)  // decided before FFmpeg was asked
    }

    @Test func aCharacterDeviceIsRefused() throws {
        let error = try #require(throws: MediaOpenError.self) { try AssetProbe.asset(at: "/dev/null") }

        #expect(error.description == "/dev/null: not a regular file (a character device)")
    }

    @Test func anEmptyFile() throws {
        let path = try FixtureMedia.path(.empty)

        let error = try #require(throws: MediaOpenError.self) { try AssetProbe.asset(at: path) }

        #expect(error.description == "\(path): the file is empty")
    }

    @Test func aTruncatedMP4QuotesTheDemuxer() throws {
        let path = try FixtureMedia.path(.truncatedMP4)

        let error = try #require(throws: MediaOpenError.self) { try AssetProbe.asset(at: path) }

        #expect(error.description == "\(path): invalid data (moov atom not found)")
        let underlying = try #require(error.underlying)
        #expect(underlying.operation == "avformat_open_input")
        #expect(underlying.message == "Invalid data found when processing input")
        #expect(underlying.code < 0)
        #expect(underlying.log.contains("moov atom not found"))
    }

    @Test func randomBytesAreInvalidData() throws {
        let path = try FixtureMedia.path(.randomBytes)

        let error = try #require(throws: MediaOpenError.self) { try AssetProbe.asset(at: path) }

        guard case .invalidData = error.reason else {
            Issue.record("expected invalid data, got \(error)")
            return
        }
        #expect(error.description.hasPrefix("\(path): invalid data ("))
    }

    /// FFmpeg alone takes these bytes for `luodat` with its lowest score and then fails to read them;
    /// outside the demuxer whitelist, they are refused for what they are.
    @Test func randomBytesWithoutAHintingNameAreNotAMediaFile() throws {
        let folder = try FixtureMedia.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("noise.dat").path
        try FileManager.default.copyItem(atPath: FixtureMedia.path(.randomBytes), toPath: path)

        let error = try #require(throws: MediaOpenError.self) { try AssetProbe.asset(at: path) }

        #expect(error.description == "\(path): not a media file")
    }

    @Test func aClipWithNoFramesSaysSo() throws {
        let path = try FixtureMedia.path(.zeroLengthMP4)

        let error = try #require(throws: MediaOpenError.self) { try AssetProbe.asset(at: path) }

        #expect(error.description == "\(path): no frames (the media is 0 s long)")
        let opened = try #require(throws: PlaybackError.self) { try FFmpegMediaOpener().open(path) }
        #expect(opened.reason == "no frames (the media is 0 s long)")
    }

    @Test func aStreamNoDecoderExistsFor() throws {
        let path = try FixtureMedia.path(.undecodableNUT)

        let error = try #require(throws: MediaOpenError.self) { try AssetProbe.asset(at: path) }

        #expect(error.reason == .unsupportedCodecs([.init(index: 0, mediaType: .video, codec: "a64m")]))
        #expect(error.naming("a64.nut").description == "a64.nut: unsupported codec 'a64m' in the only video stream")
    }

    @Test(arguments: ["ftp://example.com/a.mp4", "rtmp://example.com/live", "concat:/a.mp4|/b.mp4",
                      "subfile:,,start,0,end,100,,:/etc/passwd", "data:video/mp4;base64,AAAA", "pipe:0", "smb://nas/a.mp4"])
    func otherSchemesAreRefusedBeforeFFmpeg(_ url: String) throws {
        let scheme = String(url.prefix { $0 != ":" })

        let error = try #require(throws: MediaOpenError.self) { try AssetProbe.asset(at: url) }

        #expect(error.reason == .unsupportedScheme(scheme))
        #expect(error.description == "\(url): unsupported URL scheme '\(scheme)' (use a file path, http or https)")
        #expect(error.underlying == nil)
    }

    @Test(arguments: ["", "http://", "https:///path.mp4", "file://nas.local/media/a.mp4"])
    func malformedURLs(_ url: String) throws {
        let error = try #require(throws: MediaOpenError.self) { try AssetProbe.asset(at: url) }

        #expect(error.description == "\(url): invalid URL")
    }

    @Test(arguments: [(404, "/missing.mp4"), (403, "/private.mp4"), (410, "/gone.mp4"), (500, "/broken.mp4")])
    func httpErrorStatuses(_ status: Int, _ path: String) throws {
        let server = try LoopbackHTTPServer(routes: status == 404 ? [:] : [path: .status(status)])
        defer { server.stop() }
        let url = server.url(path)

        let error = try #require(throws: MediaOpenError.self) { try AssetProbe.asset(at: url) }

        #expect(error.reason == .httpStatus(status))
        #expect(error.description == "\(url): server refused (HTTP \(status))")
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://example.com/a.mp4", "rtsp://example.com/live"])
    func aRedirectToARefusedProtocolIsNamed(_ location: String) throws {
        let server = try LoopbackHTTPServer(routes: ["/moved.mp4": .redirect(to: location)])
        defer { server.stop() }
        let url = server.url("/moved.mp4")

        let error = try #require(throws: MediaOpenError.self) { try AssetProbe.asset(at: url) }

        #expect(error.reason == .redirectRefused(location))
        #expect(error.description == "\(url): server redirected to a refused protocol (\(location))")
    }

    @Test func aClosedPort() throws {
        let url = "http://127.0.0.1:\(try LoopbackHTTPServer.unusedPort())/a.mp4"

        let error = try #require(throws: MediaOpenError.self) { try AssetProbe.asset(at: url) }

        #expect(error.description == "\(url): connection refused")
    }

    @Test func aServerThatNeverAnswersTimesOut() throws {
        let server = try LoopbackHTTPServer(routes: ["/stall.mp4": .stall])
        defer { server.stop() }
        let url = server.url("/stall.mp4")
        let timeout = Duration.seconds(1)
        let start = ContinuousClock.now

        let error = try #require(throws: MediaOpenError.self) {
            try AssetProbe.asset(at: url, options: MediaOpenOptions(networkTimeout: timeout))
        }

        let elapsed = ContinuousClock.now - start
        #expect(error.reason == .timedOut(after: timeout))
        #expect(error.description == "\(url): timed out after 1 s")
        #expect(elapsed >= timeout * 0.9, "gave up after \(elapsed), before the timeout")
        #expect(elapsed < timeout + .seconds(2), "took \(elapsed)")
        #expect(server.requestedPaths == ["/stall.mp4"])  // it did reach the server
    }

    @Test func fractionalTimeoutsAreWrittenAsDecimals() {
        #expect(MediaOpenError.Reason.timedOut(after: .milliseconds(2500)).description == "timed out after 2.5 s")
        #expect(MediaOpenError.Reason.timedOut(after: .milliseconds(250)).description == "timed out after 0.25 s")
    }

    @Test func severalUndecodableStreamsAreListed() {
        let reason = MediaOpenError.Reason.unsupportedCodecs([
            .init(index: 0, mediaType: .video, codec: "a64m"),
            .init(index: 1, mediaType: .audio, codec: "unknown"),
        ])

        #expect(reason.description == "unsupported codecs in every audio and video stream: 'a64m' (video stream 0), 'unknown' (audio stream 1)")
    }
}
