import Foundation
import MarqueeCore
import MarqueeMedia
import MarqueePlayer
import MarqueeTestSupport
import Synchronization
import Testing

/// Sources slower than real time (issue 13, section 4), read with real FFmpeg from
/// `LoopbackHTTPServer` on 127.0.0.1: a link that trickles is slow, not dead; a remote item is read
/// `readAhead` seconds ahead of decoding and says how far it got (`readAheadStatus`); an HLS segment
/// the server will not give is one warning and no frozen picture.
@Suite struct SlowSourceTests {
    static let timeout = Duration.seconds(1)

    // MARK: Time without data

    /// `lateBulkyTS` opens on its first 7 s of tiny pictures (all the probe reads of a source it
    /// cannot seek), then each of its last pictures is a packet of about 53 KB: at 40 KB/s reading
    /// one takes well over the 1 s timeout, while bytes come every tenth of a second.
    @Test func aTransportStreamTrickledSlowerThanAPacketPerTimeoutPlaysToItsEnd() throws {
        let file = try FixtureMedia.url(.lateBulkyTS)
        let data = try Data(contentsOf: file)
        let server = try LoopbackHTTPServer(routes: ["/slow.ts": .throttledStream(data, contentType: "video/mp2t", bytesPerSecond: 40_000)])
        defer { server.stop() }
        let local = try NetworkPlaybackTests.readAll(FFmpegMediaOpener().open(file.path))

        let reader: MediaReader
        do {
            reader = try FFmpegMediaOpener(options: MediaOpenOptions(networkTimeout: Self.timeout)).open(server.url("/slow.ts"))
        } catch {
            Issue.record("the open, which reads only small packets, failed: \(error)")
            return
        }
        var remote: [VideoPicture] = []
        var longestWait = Duration.zero
        while true {
            let started = ContinuousClock.now
            let next: VideoPicture?
            do {
                next = try reader.nextPicture()
            } catch {
                Issue.record("reading failed after \(remote.count) pictures: \(error)")
                return
            }
            guard let picture = next else { break }
            longestWait = max(longestWait, ContinuousClock.now - started)
            remote.append(picture)
        }

        #expect(longestWait > Self.timeout, "no picture took longer than the timeout to arrive: the test proves nothing")
        #expect(local.count == 20)
        #expect(remote.map(\.pts) == local.map(\.pts))
    }

    /// Silence is still silence: a transport stream whose server stops sending mid-file (well after
    /// what opening it reads) ends with the timeout's error, within the timeout. Served without byte
    /// ranges: with them, opening a TS also reads its last 250 KB (for the duration), which a server
    /// silent past the middle never sends.
    @Test func aTransportStreamWhoseServerFallsSilentStillTimesOut() throws {
        let data = try Data(contentsOf: FixtureMedia.url(.networkClipTS))
        let server = try LoopbackHTTPServer(routes: ["/stall.ts": .stallingStream(data, contentType: "video/mp2t", after: data.count / 2)])
        defer { server.stop() }
        let url = server.url("/stall.ts")
        let run = NetworkPlaybackTests.playUntilItStops(url, server: server)
        #expect(run.openError == nil)
        NetworkPlaybackTests.expectTimedOut(run, url: url)
        #expect(run.indices.count > 250 && run.indices.count < 500, "\(run.indices.count) pictures before the stall")
    }

    // MARK: Read-ahead

    @Test func aFastSourceIsFetchedItsReadAheadAheadWithoutDecoding() throws {
        let server = try Self.serveNetworkClip(bytesPerSecond: nil)
        defer { server.stop() }
        let reader = try FFmpegMediaOpener(options: MediaOpenOptions(readAhead: .seconds(3))).open(server.url("/clip.mp4"))

        let status = Self.waitForStatus(of: reader) { $0.isLikelyToKeepUp }
        #expect(status.target == MediaTime(seconds: 3))
        #expect(status.isLikelyToKeepUp, "only \(status.buffered) fetched ahead after 30 s")
        #expect(!status.reachedEnd, "the 10 s clip was read to its end with a 3 s read-ahead")
        #expect(status.buffered < MediaTime(seconds: 4), "fetched \(status.buffered) ahead, past the 3 s asked for")
    }

    @Test func aShortSourceIsReadToItsEnd() throws {
        let server = try Self.serveNetworkClip(bytesPerSecond: nil)
        defer { server.stop() }
        let reader = try FFmpegMediaOpener(options: MediaOpenOptions(readAhead: .seconds(30))).open(server.url("/clip.mp4"))

        let status = Self.waitForStatus(of: reader) { $0.reachedEnd }
        #expect(status.reachedEnd)
        #expect(status.isLikelyToKeepUp)
        // The whole clip less what decoding took when it opened: about 10 s.
        #expect(status.buffered > MediaTime(seconds: 9), "\(status.buffered)")
    }

    /// At 12 KB/s a 32 KB/s clip cannot be 10 s ahead within 20 s of starting: the status must say so.
    @Test func aThrottledSourceIsNotLikelyToKeepUp() throws {
        let server = try Self.serveNetworkClip(bytesPerSecond: 12_000)
        defer { server.stop() }
        let started = ContinuousClock.now
        let reader = try FFmpegMediaOpener().open(server.url("/clip.mp4"))
        Thread.sleep(forTimeInterval: 1.5)
        let status = reader.readAheadStatus

        #expect(ContinuousClock.now - started < .seconds(20), "too slow a machine for this bound")
        #expect(status.target == MediaTime(seconds: 10))
        #expect(!status.reachedEnd)
        #expect(!status.isLikelyToKeepUp, "\(status.buffered) fetched ahead at 12 KB/s")
        #expect(status.buffered < MediaTime(seconds: 8))
    }

    /// What is decoded (pictures and audio, their times, across a seek) is the same read ahead over
    /// http as read directly from the file.
    @Test func readingAheadDecodesWhatTheLocalFileDecodes() throws {
        let file = try FixtureMedia.url(.networkClip)
        let server = try Self.serveNetworkClip(bytesPerSecond: nil)
        defer { server.stop() }
        let local = try FFmpegMediaOpener().open(file.path)
        let remote = try FFmpegMediaOpener(options: MediaOpenOptions(readAhead: .seconds(2))).open(server.url("/clip.mp4"))

        for reader in [local, remote] { try reader.seek(to: MediaTime(3, per: 2)) }
        let localFirst = try Self.decode(local, count: 100)
        let remoteFirst = try Self.decode(remote, count: 100)
        #expect(remoteFirst == localFirst)
        #expect(localFirst.count == 100)

        for reader in [local, remote] { try reader.seek(to: MediaTime(13, per: 2)) }
        let localRest = try Self.decode(local, count: .max)
        let remoteRest = try Self.decode(remote, count: .max)
        #expect(remoteRest == localRest)
        #expect(remote.readAheadStatus.reachedEnd)
        #expect(local.readAheadStatus == .local)
    }

    // MARK: HLS segment missing

    @Test func aMissingHLSSegmentIsOneWarningAndNoFrozenPicture() throws {
        let folder = try FixtureMedia.url(.networkHLS)
        let server = try NetworkPlaybackTests.serve(folder, under: "/hls")
        defer { server.stop() }
        server.setRoute("/hls/seg4.ts", .status(404))
        let warnings = Mutex<[String]>([])
        let opener = FFmpegMediaOpener(warn: { line in warnings.withLock { $0.append(line) } })
        let url = server.url("/hls/index.m3u8")
        let reader = try opener.open(url)

        let pictures = try NetworkPlaybackTests.readAll(reader)

        let lines = warnings.withLock { $0 }
        #expect(lines == ["\(url): segment \(server.url("/hls/seg4.ts")) is missing (HTTP error 404 Not Found); playing on from the next segment"])
        #expect(pictures.count == 225, "the 250 pictures less the 25 of the missing second")
        let steps = zip(pictures.dropFirst(), pictures).map { $0.pts - $1.pts }
        let longest = try #require(steps.max())
        #expect(longest <= MediaTime(2, per: 25), "the picture before the missing segment stays \(longest)")
        #expect(abs((reader.skippedMediaTime - MediaTime(seconds: 1)).seconds) < 0.05, "skipped \(reader.skippedMediaTime)")
        // The frame numbers say which second is gone: 100 to 124.
        let indices = try pictures.map { try $0.frameIndex() }
        #expect(indices == Array(0..<100) + Array(125..<250))
    }

    /// The engine plays the same stream on the virtual clock: the item does not fail as cut short
    /// (it is a second short of its declared 10 s), its pictures follow each other on the timeline
    /// without a held one, and it ends after the 9 s it has.
    @Test func theEnginePlaysOnOverAMissingHLSSegment() throws {
        let folder = try FixtureMedia.url(.networkHLS)
        let server = try NetworkPlaybackTests.serve(folder, under: "/hls")
        defer { server.stop() }
        server.setRoute("/hls/seg4.ts", .status(404))
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        let clock = VirtualClock()
        let events = Mutex<[(event: PlayerEvent, at: MediaTime)]>([])
        let player = QueuePlayer(items: [QueueItem(url: server.url("/hls/index.m3u8"))], settings: settings,
                                 opener: FFmpegMediaOpener(), video: HeadlessVideoOutput(size: PixelSize(width: 160, height: 90)),
                                 audio: NullAudioOutput(format: .standard), clock: clock,
                                 events: { event in events.withLock { $0.append((event, clock.now())) } })
        player.start()
        let deadline = ContinuousClock.now + .seconds(120)
        func hasEnded() -> Bool {
            events.withLock { $0.contains { if case .itemEnded = $0.event { true } else { false } } }
        }
        while !hasEnded() && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
        player.shutDown()
        player.waitUntilFinished()
        let recorded = events.withLock { $0 }
        let errors = recorded.compactMap { if case .error(let message) = $0.event { message } else { nil } }
        #expect(errors.isEmpty, "\(errors)")
        let ends = recorded.compactMap { entry -> (FinishReason, MediaTime)? in
            if case .itemEnded(_, _, let reason, _) = entry.event { (reason, entry.at) } else { nil }
        }
        #expect(ends.map(\.0) == [.playbackEnded])
        let times = recorded.compactMap { if case .frame(_, _, let time, false, _) = $0.event { time } else { nil } }
        #expect(times.count > 200, "\(times.count) pictures shown")
        let longest = zip(times.dropFirst(), times).map { $0 - $1 }.max() ?? .zero
        #expect(longest <= MediaTime(2, per: 25), "a picture stayed on screen \(longest)")
        if let end = ends.first?.1 {
            #expect(end < MediaTime(95, per: 10), "the item ended at \(end), past the 9 s it has")
        }
    }

    // MARK: Helpers

    static func serveNetworkClip(bytesPerSecond: Int?) throws -> LoopbackHTTPServer {
        let data = try Data(contentsOf: FixtureMedia.url(.networkClip))
        let route: LoopbackHTTPServer.Route = bytesPerSecond.map { .throttledFile(data, contentType: "video/mp4", bytesPerSecond: $0) }
            ?? .file(data, contentType: "video/mp4")
        return try LoopbackHTTPServer(routes: ["/clip.mp4": route])
    }

    /// Polls the status until `done` holds, or 30 s have passed; the last status either way.
    static func waitForStatus(of reader: MediaReader, until done: (ReadAheadStatus) -> Bool) -> ReadAheadStatus {
        let deadline = ContinuousClock.now + .seconds(30)
        var status = reader.readAheadStatus
        while !done(status) && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            status = reader.readAheadStatus
        }
        return status
    }

    enum Decoded: Equatable {
        case picture(MediaTime)
        case audio(MediaTime, frames: Int)
    }

    static func decode(_ reader: MediaReader, count: Int) throws -> [Decoded] {
        var decoded: [Decoded] = []
        while decoded.count < count, let media = try reader.nextMedia(audioFormat: AudioFormat(sampleRate: 48_000, channelCount: 2)) {
            switch media {
            case .picture(let picture): decoded.append(.picture(picture.pts))
            case .audio(let block): decoded.append(.audio(block.pts, frames: block.frameCount))
            }
        }
        return decoded
    }
}

extension FixtureMedia.Recipe {
    /// `networkClip` (10 s, frame numbers in its pixels, H.264 and AAC) three times over, remuxed to
    /// a 30 s MPEG-TS of about 3 MB: long enough that opening it reads neither its middle (the probe
    /// reads its first 5 s, and its last 250 KB for the duration) nor its end.
    static let networkClipTS = Self(name: "network-frame-index-noise-30s.ts") { output in
        try FixtureMedia.ffmpeg(["-stream_loop", "2", "-i", try FixtureMedia.path(.networkClip), "-c", "copy", "-f", "mpegts", output.path])
    }

    /// 20 pictures at 2 fps of 240x180, every one a key frame, MPEG-2 at the finest quantiser, in
    /// MPEG-TS: flat grey (under 1 KB each) for the first 8.5 s, longer than the 7 s FFmpeg's probe
    /// reads of it, then 3 of random noise (about 53 KB each), so a slow link takes long over each.
    static let lateBulkyTS = Self(name: "late-bulky-noise.ts") { output in
        try FixtureMedia.ffmpeg(["-f", "lavfi", "-i", "nullsrc=s=240x180:r=2:d=10,geq=lum='if(gte(T,8.4),random(1)*255,128)':cb=128:cr=128",
                                 "-c:v", "mpeg2video", "-q:v", "1", "-g", "1", "-pix_fmt", "yuv420p", output.path])
    }
}
