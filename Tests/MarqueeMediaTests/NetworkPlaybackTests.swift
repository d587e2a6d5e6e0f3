import Foundation
import Glibc
import MarqueeCore
import MarqueeMedia
import MarqueeTestSupport
import Synchronization
import Testing

/// Playback over the network, not just probing: the engine's opener (`FFmpegMediaOpener`: open, then
/// `asset`, `seek(to:)`, `nextPicture()` until nil) against real servers on 127.0.0.1 started by the
/// tests — `LoopbackHTTPServer` (byte ranges, refusals, stalls) and Python's `http.server` — each on a
/// port the kernel picks. The clips carry their frame number in their pixels (`FrameIndexCodec`), so
/// "every frame" is checked frame by frame, not only counted.
///
/// A stall must end the item with an error saying it timed out, within the configured timeout: a
/// blocked read would hold the decode thread, and with it the whole playlist, forever. The stall tests
/// run the reader on a thread of their own under a watchdog, so a reader that does block fails the
/// test (the watchdog stops the server, which unblocks it) instead of hanging the run.
@Suite struct NetworkPlaybackTests {
    static let opener = FFmpegMediaOpener()
    static let frame = MediaTime(1, per: 25)
    static let timeout = Duration.seconds(1)
    /// The bound the stall tests hold a timed-out read to: the timeout plus this much, for a loaded machine.
    static let slack = Duration.seconds(2)

    struct Clip: CustomTestStringConvertible, Sendable {
        let recipe: FixtureMedia.Recipe
        let label: String
        let frames: Int
        /// Whether its pictures show `FrameIndexCodec` numbers.
        let carriesIndex: Bool
        /// Whether FFmpeg must ask for more than one byte range to read it (the index at the end, or
        /// a seek outside what it has buffered).
        let needsSeveralRequests: Bool
        var testDescription: String { label }
    }

    static let httpClips = [
        Clip(recipe: .frameIndexH264, label: "4 s H.264 MP4, index first", frames: 100, carriesIndex: true,
             needsSeveralRequests: false),
        Clip(recipe: .h264AAC, label: "2 s H.264/AAC MP4, index at the end", frames: 50, carriesIndex: false,
             needsSeveralRequests: true),
        Clip(recipe: .networkClip, label: "10 s H.264/AAC MP4 of 320 KB", frames: 250, carriesIndex: true,
             needsSeveralRequests: true),
    ]

    // MARK: 1. MP4 over http with byte ranges

    @Test(arguments: httpClips)
    func anMP4OverHTTPDecodesEveryFrameAsTheLocalFileDoes(_ clip: Clip) throws {
        let file = try FixtureMedia.url(clip.recipe)
        let server = try LoopbackHTTPServer(routes: ["/media/clip.mp4": .file(try Data(contentsOf: file), contentType: "video/mp4")])
        defer { server.stop() }
        let url = server.url("/media/clip.mp4")
        let local = try Self.opener.open(file.path)
        let localPictures = try Self.readAll(local)

        let remote = try Self.opener.open(url)
        let remotePictures = try Self.readAll(remote)

        #expect(remote.asset.url == url)
        #expect(remote.asset.isSeekable, "a server that honours byte ranges serves a seekable asset")
        #expect(remote.asset.duration == local.asset.duration)
        #expect(localPictures.count == clip.frames)
        #expect(remotePictures.count == clip.frames)
        #expect(remotePictures.map(\.pts) == localPictures.map(\.pts))
        if clip.carriesIndex {
            #expect(try remotePictures.map { try $0.frameIndex() } == Array(0..<clip.frames))
        }
        #expect(try remote.nextPicture() == nil)  // and it stays at the end

        // Back from the end to the middle: the keyframe at or before 1.5 s (every clip has one each second).
        let target = MediaTime(3, per: 2)
        try local.seek(to: target)
        try remote.seek(to: target)
        let localAfterSeek = try Self.readAll(local)
        let remoteAfterSeek = try Self.readAll(remote)
        #expect(remoteAfterSeek.first?.pts == localAfterSeek.first?.pts)
        #expect(remoteAfterSeek.map(\.pts) == localAfterSeek.map(\.pts))
        #expect(remoteAfterSeek.count == clip.frames - 25, "the seek should land on the keyframe at 1 s")
        if clip.carriesIndex {
            #expect(try remoteAfterSeek.map { try $0.frameIndex() } == Array(25..<clip.frames))
        }
        if clip.needsSeveralRequests {
            #expect(server.requestedPaths.count > 1, "expected ranged requests, got \(server.requestedPaths)")
        }
        #expect(Set(server.requestedPaths) == ["/media/clip.mp4"])
    }

    // MARK: 2. HLS VOD across segment boundaries

    @Test func anHLSStreamDecodesEveryFrameAcrossItsSegments() throws {
        let folder = try FixtureMedia.url(.networkHLS)
        let segments = try Self.segmentNames(in: folder)
        try #require(segments.count >= 8, "the stream should span many segments, has \(segments)")
        let server = try Self.serve(folder, under: "/hls")
        defer { server.stop() }
        let local = try Self.readAll(Self.opener.open(FixtureMedia.path(.networkClip)))

        let reader = try Self.opener.open(server.url("/hls/index.m3u8"))
        let pictures = try Self.readAll(reader)

        #expect(reader.asset.containerName == "hls")
        #expect(reader.asset.isSeekable)
        #expect(pictures.count == local.count)
        #expect(pictures.count == 250)
        #expect(try pictures.map { try $0.frameIndex() } == Array(0..<250))
        let pts = pictures.map(\.pts)
        let gaps = zip(pts, pts.dropFirst()).map { $1 - $0 }
        #expect(gaps.allSatisfy { $0 > .zero && $0 <= Self.frame },
                "gaps outside (0, 1/25 s]: \(gaps.enumerated().filter { $0.element <= .zero || $0.element > Self.frame })")
        // Every segment was fetched, each once, in order, after the playlist.
        #expect(server.requestedPaths == ["/hls/index.m3u8"] + segments.map { "/hls/" + $0 })
    }

    // MARK: 3. Servers that refuse

    @Test func aMissingFileOnTheServerIsRefusedWithItsStatus() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let url = server.url("/media/none.mp4")

        let error = try #require(throws: PlaybackError.self) { try Self.opener.open(url) }

        #expect(error == PlaybackError(url: url, reason: "server refused (HTTP 404)"))
        #expect(server.requestedPaths == ["/media/none.mp4"])
    }

    @Test func aClosedPortIsRefusedConnection() throws {
        let url = "http://127.0.0.1:\(try LoopbackHTTPServer.unusedPort())/media/clip.mp4"
        let start = ContinuousClock.now

        let error = try #require(throws: PlaybackError.self) { try Self.opener.open(url) }

        #expect(error == PlaybackError(url: url, reason: "connection refused"))
        #expect(ContinuousClock.now - start < .seconds(3), "a refused connection needs no timeout")
    }

    // MARK: 4. A server that stalls mid-stream

    @Test func anMP4WhoseServerStallsMidStreamEndsWithATimeout() throws {
        let data = try Data(contentsOf: FixtureMedia.url(.networkClip))
        let server = try LoopbackHTTPServer(routes: [
            "/media/clip.mp4": .stallingFile(data, contentType: "video/mp4", after: data.count / 2),
        ])
        defer { server.stop() }
        let url = server.url("/media/clip.mp4")

        let run = Self.playUntilItStops(url, server: server)

        try #require(run.openError == nil, "the stall is after the first half: the open should succeed, got \(run.openError!)")
        Self.expectTimedOut(run, url: url)
        // What did arrive played, from the first frame on: the stall is mid-stream.
        #expect(run.indices == Array(0..<run.indices.count))
        #expect(run.indices.count >= 25 && run.indices.count < 250, "\(run.indices.count) pictures before the stall")
    }

    // MARK: 5. HLS whose segment server stalls

    enum SegmentStall: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// Headers and half of segment 5, then silence.
        case midSegment
        /// Segment 5's request is accepted and never answered.
        case noAnswer
        var testDescription: String { rawValue }
    }

    @Test(arguments: SegmentStall.allCases)
    func anHLSStreamWhoseSegmentStallsEndsWithATimeout(_ stall: SegmentStall) throws {
        let folder = try FixtureMedia.url(.networkHLS)
        let server = try Self.serve(folder, under: "/hls")
        defer { server.stop() }
        let segment = try Data(contentsOf: folder.appendingPathComponent("seg5.ts"))
        switch stall {
        case .midSegment: server.setRoute("/hls/seg5.ts", .stallingFile(segment, contentType: "video/mp2t", after: segment.count / 2))
        case .noAnswer: server.setRoute("/hls/seg5.ts", .stall)
        }
        let url = server.url("/hls/index.m3u8")

        let run = Self.playUntilItStops(url, server: server)

        try #require(run.openError == nil, "the stall is in segment 5: the open should succeed, got \(run.openError!)")
        Self.expectTimedOut(run, url: url)
        // What arrived played in order, and nothing after the stalled segment plays in its place.
        #expect(run.indices == Array(0..<run.indices.count))
        switch stall {
        // How much of the segments before it comes out depends on FFmpeg's buffering (the transport
        // stream demuxer holds each frame until the next one starts): the bounds leave it a segment.
        case .midSegment:
            // Segments 0-3 (frames 0-99) at least; nothing of segment 6 (frames 150-174).
            #expect(run.indices.count >= 100 && run.indices.count < 150, "\(run.indices.count) pictures before the stall")
        case .noAnswer:
            // FFmpeg opens the next segment as soon as it starts reading one (`http_multiple`), so it
            // waits on segment 5 at the start of segment 4: segments 0-2 at least, nothing of 5.
            #expect(run.indices.count >= 75 && run.indices.count < 125, "\(run.indices.count) pictures before the stall")
        }
        #expect(server.requestedPaths.contains("/hls/seg5.ts"))
        #expect(!server.requestedPaths.contains("/hls/seg7.ts"), "it went on past the stalled segment: \(server.requestedPaths)")
    }

    // MARK: 6. A second, independent server: Python's http.server

    @Test func anMP4ServedByPythonsHTTPServerDecodesCompletely() throws {
        let folder = try FixtureMedia.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try FixtureMedia.url(.networkClip)
        try FileManager.default.copyItem(at: file, to: folder.appendingPathComponent("clip.mp4"))
        let python = try PythonHTTPServer(serving: folder)
        defer { python.stop() }
        let url = python.url("/clip.mp4")
        let local = try Self.readAll(Self.opener.open(file.path))

        let reader = try Self.opener.open(url)
        let pictures = try Self.readAll(reader)

        #expect(reader.asset.url == url)
        #expect(pictures.count == 250)
        #expect(pictures.map(\.pts) == local.map(\.pts))
        #expect(try pictures.map { try $0.frameIndex() } == Array(0..<250))

        // The same server refusing: its 404 reads as the loopback server's does.
        let missing = python.url("/none.mp4")
        let error = try #require(throws: PlaybackError.self) { try Self.opener.open(missing) }
        #expect(error == PlaybackError(url: missing, reason: "server refused (HTTP 404)"))
    }

    // MARK: Helpers

    static func readAll(_ reader: MediaReader) throws -> [VideoPicture] {
        var pictures: [VideoPicture] = []
        while let picture = try reader.nextPicture() { pictures.append(picture) }
        return pictures
    }

    /// The `.ts` files of an HLS folder in playlist order.
    static func segmentNames(in folder: URL) throws -> [String] {
        let playlist = try String(contentsOf: folder.appendingPathComponent("index.m3u8"), encoding: .utf8)
        return playlist.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && $0.hasSuffix(".ts") }
    }

    /// A loopback server with every file of `folder` at `prefix/name`.
    static func serve(_ folder: URL, under prefix: String) throws -> LoopbackHTTPServer {
        let server = try LoopbackHTTPServer()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let type = name.hasSuffix(".m3u8") ? "application/vnd.apple.mpegurl" : "video/mp2t"
            server.setRoute(prefix + "/" + name, .file(try Data(contentsOf: folder.appendingPathComponent(name)), contentType: type))
        }
        return server
    }

    /// What became of playing a stalling URL to its end.
    struct StallRun: Sendable {
        var openError: PlaybackError?
        /// The frame number of each picture that came out, in order.
        var indices: [Int] = []
        /// How the reading ended: the error thrown, or nil when `nextPicture()` returned nil.
        var error: PlaybackError?
        var otherError: String?
        /// The longest single `nextPicture()` call: the one that waited on the silent server.
        var longestCall: Duration = .zero
        /// From the start of that call to the end of reading (the pictures still in the decoder included).
        var fromStallToEnd: Duration = .zero
        /// The reader was still blocked when the watchdog gave up on it.
        var blocked = false
    }

    /// Opens `url` with a 1 s network timeout and reads pictures until the reader throws or ends, on a
    /// thread of its own. If that has not happened long after any deadline could explain, the server
    /// is stopped (closing every connection, which unblocks any read) and the run says it was blocked.
    static func playUntilItStops(_ url: String, server: LoopbackHTTPServer) -> StallRun {
        let result = Mutex(StallRun())
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            var run = StallRun()
            defer {
                result.withLock { $0 = run }
                finished.signal()
            }
            let reader: MediaReader
            do {
                reader = try FFmpegMediaOpener(options: MediaOpenOptions(networkTimeout: timeout)).open(url)
            } catch let error as PlaybackError {
                run.openError = error
                return
            } catch {
                run.otherError = "open: \(error)"
                return
            }
            var longestStart = ContinuousClock.now
            while true {
                let start = ContinuousClock.now
                var picture: VideoPicture?
                do {
                    picture = try reader.nextPicture()
                } catch let error as PlaybackError {
                    run.error = error
                } catch {
                    run.otherError = "\(error)"
                }
                let end = ContinuousClock.now
                if end - start > run.longestCall {
                    run.longestCall = end - start
                    longestStart = start
                }
                run.fromStallToEnd = end - longestStart
                guard run.error == nil, run.otherError == nil, let picture else { return }
                run.indices.append((try? picture.frameIndex()) ?? -1)
            }
        }
        thread.name = "network-playback-stall"
        thread.start()
        // Generous for a loaded 2-core machine: decoding 10 s of 320x240 takes well under a second idle.
        if finished.wait(timeout: .now() + .seconds(60)) == .success {
            return result.withLock { $0 }
        }
        server.stop()
        _ = finished.wait(timeout: .now() + .seconds(30))
        var run = result.withLock { $0 }
        run.blocked = true
        return run
    }

    static func expectTimedOut(_ run: StallRun, url: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!run.blocked, "the reader was still blocked on the silent server after 60 s", sourceLocation: sourceLocation)
        #expect(run.otherError == nil, "\(run.otherError ?? "")", sourceLocation: sourceLocation)
        #expect(run.error == PlaybackError(url: url, reason: "timed out after 1 s"),
                "reading ended with \(run.error.map { "\($0)" } ?? "nil (the end of the stream)") after \(run.indices.count) pictures",
                sourceLocation: sourceLocation)
        // The error says the stall was seen. How long decoding waited on it is not: a remote source is
        // read ahead on a thread of its own, which may have met the silence while decoding still had
        // packets to take. Only the bound holds: no longer than the timeout allows.
        #expect(run.fromStallToEnd < timeout + slack, "took \(run.fromStallToEnd) from the stall to the end",
                sourceLocation: sourceLocation)
    }
}

// MARK: Fixtures

extension FixtureMedia.Recipe {
    /// 250 frames (10 s) of the frame-index pattern at 25 fps, H.264 with B-frames, a key frame every
    /// 25 frames, and 48 kHz stereo white noise as 256 kb/s AAC to give it bulk (about 320 KB), in MP4
    /// with the index first: big enough that opening it reads only its start.
    static let networkClip = Self(name: "network-frame-index-noise.mp4") { output in
        // The noise goes first: the frame-index source ends with its output option `-frames:v`.
        try FixtureMedia.ffmpeg(["-f", "lavfi", "-i", "anoisesrc=sample_rate=48000:amplitude=0.5:duration=10:seed=7"]
            + FrameIndexCodec.lavfiSource(frames: 250, rate: "25")
            + ["-map", "1:v", "-map", "0:a", "-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-pix_fmt", "yuv420p", "-bf", "2",
               "-g", "25", "-keyint_min", "25", "-sc_threshold", "0",
               "-c:a", "aac", "-b:a", "256k", "-ac", "2", "-movflags", "+faststart", output.path])
    }

    /// `networkClip` remuxed (no re-encoding) to an HLS VOD stream: a folder holding `index.m3u8` and
    /// ten 1 s MPEG-TS segments `seg0.ts` … `seg9.ts`, each starting on a key frame.
    static let networkHLS = Self(name: "network-hls") { output in
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        try FixtureMedia.ffmpeg(["-i", try FixtureMedia.path(.networkClip), "-c", "copy",
                                 "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod", "-hls_segment_type", "mpegts",
                                 "-hls_segment_filename", output.appendingPathComponent("seg%d.ts").path,
                                 output.appendingPathComponent("index.m3u8").path])
    }
}

// MARK: Python's http.server

/// `python3 -m http.server` on 127.0.0.1, on a port the kernel picks (it prints which), serving one
/// folder; `stop()` kills it. A machine without python3 fails the asking test with a message saying so.
final class PythonHTTPServer {
    let port: UInt16
    private let process: Process

    init(serving folder: URL) throws {
        let process = Process()
        process.executableURL = try Self.executable()
        // -u: unbuffered, so the "Serving HTTP on ... port N" line arrives as soon as it is written.
        process.arguments = ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder.path]
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice  // its request log; a full pipe would block it
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        do {
            port = try Self.readPort(from: output.fileHandleForReading, deadline: .now + .seconds(30))
        } catch {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw error
        }
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)" + path }

    /// SIGKILL: the child inherits the test runner's signal mask, which blocks SIGTERM and SIGINT, so
    /// `terminate()` would not end it; the server holds nothing that needs a clean exit.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Reads stdout until `Serving HTTP on 127.0.0.1 port N (...)`, polling so a silent process cannot hang the test.
    private static func readPort(from handle: FileHandle, deadline: ContinuousClock.Instant) throws -> UInt16 {
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 512)
        while ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let count = read(handle.fileDescriptor, &buffer, buffer.count)
            guard count > 0 else { throw FixtureError("python3 -m http.server exited before saying its port: \(text)") }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
            if let range = text.range(of: " port "),
               let port = UInt16(text[range.upperBound...].prefix { $0.isNumber }), text[range.upperBound...].contains(" ") {
                return port
            }
        }
        throw FixtureError("python3 -m http.server did not say its port within 30 s: \(text)")
    }

    private static func executable() throws -> URL {
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in searchPath.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("python3")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw FixtureError("python3 is not on PATH (\(searchPath)); the network tests run Python's http.server as a second server.")
    }
}
