import Foundation
import MarqueeCore
import Synchronization

/// Media for engine logic tests: each URL names a script of frames or a failure. Real decoding is
/// tested in MarqueeMediaTests and end to end; here only the engine's decisions are under test.
final class ScriptedMedia: MediaOpening {
    enum Script: Sendable {
        /// `frames` pictures every `frameDuration`, keyframes every 10; with audio interleaved
        /// after each picture, covering it, when `withAudio`.
        case video(frames: Int, frameDuration: MediaTime, withAudio: Bool = false)
        /// Audio only, `seconds` long, in 1024-frame blocks.
        case audioOnly(seconds: Int)
        /// Like `video`, but decoding frame `stallingAt` takes `seconds` of real time (a server that stalls).
        case stalling(frames: Int, frameDuration: MediaTime, stallingAt: Int, seconds: Double)
        /// Like `stalling`, with sound decoded `audioLead` ahead of the pictures (the audio packets
        /// of a stream come before its video, or a read-ahead holds more of one than the other): the
        /// sound is there to play on under the frozen picture.
        case stallingWithSound(frames: Int, frameDuration: MediaTime, stallingAt: Int, seconds: Double, audioLead: MediaTime)
        /// Like `video`, from a source that delivers `mediaPerSecond` seconds of media per second of
        /// real time from its open, fetching up to `readAhead` ahead of decoding (a slow link): a
        /// picture decodes once its span has arrived, and `readAheadStatus` says what has.
        case trickling(frames: Int, frameDuration: MediaTime, mediaPerSecond: Double, readAhead: MediaTime)
        case still
        case failure(String)
    }

    private let scripts: [String: Script]
    private let opens = Mutex<[String]>([])

    init(_ scripts: [String: Script]) {
        self.scripts = scripts
    }

    /// Every URL opened so far, in order.
    var openedURLs: [String] { opens.withLock { $0 } }

    func open(_ url: String) throws -> MediaReader {
        opens.withLock { $0.append(url) }
        switch scripts[url] {
        case .video(let frames, let frameDuration, let withAudio)?:
            return ScriptedReader(url: url, frameCount: frames, frameDuration: frameDuration, still: false, audio: withAudio)
        case .stalling(let frames, let frameDuration, let stallingAt, let seconds)?:
            let reader = ScriptedReader(url: url, frameCount: frames, frameDuration: frameDuration, still: false, audio: false)
            reader.stall = (stallingAt, seconds)
            return reader
        case .stallingWithSound(let frames, let frameDuration, let stallingAt, let seconds, let audioLead)?:
            let reader = ScriptedReader(url: url, frameCount: frames, frameDuration: frameDuration, still: false, audio: true)
            reader.stall = (stallingAt, seconds)
            reader.audioLead = audioLead
            return reader
        case .trickling(let frames, let frameDuration, let rate, let readAhead)?:
            let reader = ScriptedReader(url: url, frameCount: frames, frameDuration: frameDuration, still: false, audio: false)
            reader.trickle = TrickleSource(mediaPerSecond: rate, readAhead: readAhead, duration: frameDuration * Int64(frames))
            return reader
        case .audioOnly(let seconds)?:
            return ScriptedReader(url: url, frameCount: 0, frameDuration: MediaTime(seconds: Int64(seconds)), still: false, audio: true)
        case .still?:
            return ScriptedReader(url: url, frameCount: 1, frameDuration: .zero, still: true, audio: false)
        case .failure(let reason)?:
            throw PlaybackError(url: url, reason: reason)
        case nil:
            throw PlaybackError(url: url, reason: "no such file")
        }
    }
}

/// A source fetched at a fixed rate of media seconds per real second, at most `readAhead` ahead of
/// what is decoded, as a read-ahead over a slow link is.
final class TrickleSource: Sendable {
    let mediaPerSecond: Double
    let readAhead: MediaTime
    let duration: MediaTime
    private let state: Mutex<(fetched: Double, decoded: Double, at: ContinuousClock.Instant)>

    init(mediaPerSecond: Double, readAhead: MediaTime, duration: MediaTime) {
        self.mediaPerSecond = mediaPerSecond
        self.readAhead = readAhead
        self.duration = duration
        state = Mutex((0, 0, .now))
    }

    /// Fetches what the link delivered since last asked, never more than the read-ahead allows.
    private func fetched() -> (fetched: Double, decoded: Double) {
        state.withLock { state in
            let now = ContinuousClock.now
            let delivered = (now - state.at) / .seconds(1) * mediaPerSecond
            state.fetched = min(duration.seconds, state.decoded + readAhead.seconds, state.fetched + delivered)
            state.at = now
            return (state.fetched, state.decoded)
        }
    }

    var status: ReadAheadStatus {
        let (fetched, decoded) = fetched()
        return ReadAheadStatus(buffered: MediaTime(Int64((fetched - decoded) * 1000), per: 1000), target: readAhead,
                               reachedEnd: fetched >= duration.seconds)
    }

    /// Blocks the decode thread until media up to `end` has arrived, then counts it decoded.
    func waitUntilFetched(_ end: MediaTime) {
        while fetched().fetched < end.seconds { Thread.sleep(forTimeInterval: 0.002) }
        state.withLock { $0.decoded = max($0.decoded, end.seconds) }
    }
}

/// Audio samples carry their own frame index in the media (channel 0: +index, channel 1: −index),
/// so a test reading the output knows exactly which sample landed where.
final class ScriptedReader: MediaReader {
    let asset: Asset
    private let frameDuration: MediaTime
    private let frameCount: Int
    private let hasAudio: Bool
    private var position = 0
    /// Audio-only media: the next audio frame to deliver.
    private var audioPosition: Int64 = 0
    private var pendingAudio: [AudioBlock] = []
    /// Frame index whose decoding blocks, and for how long.
    var stall: (frame: Int, seconds: Double)?
    /// A slow source the pictures wait for.
    var trickle: TrickleSource?
    /// How far ahead of each picture its sound is decoded.
    var audioLead = MediaTime.zero
    /// Audio frames decoded so far (pictures with sound).
    private var audioDecodedTo: Int64 = 0

    var readAheadStatus: ReadAheadStatus { trickle?.status ?? .local }

    init(url: String, frameCount: Int, frameDuration: MediaTime, still: Bool, audio: Bool) {
        self.frameCount = frameCount
        self.frameDuration = frameDuration
        hasAudio = audio
        let duration: MediaTime? = still ? nil : (frameCount == 0 ? frameDuration : frameDuration * Int64(frameCount))
        var types: Set<MediaType> = frameCount > 0 ? [.video] : []
        if audio { types.insert(.audio) }
        asset = Asset(url: url, duration: duration,
                      naturalSize: frameCount > 0 ? PixelSize(width: 64, height: 36) : nil,
                      codedSize: frameCount > 0 ? PixelSize(width: 64, height: 36) : nil,
                      sampleAspectRatio: .square, rotation: .none, mediaTypes: types,
                      tracks: [Track(index: 0, mediaType: .video, codecName: "scripted", isDecodable: true)],
                      isSeekable: true, isStillImage: still, containerName: "scripted")
    }

    func seek(to time: MediaTime) throws {
        var frame = 0
        while frame + 10 < frameCount && frameDuration * Int64(frame + 10) <= time { frame += 10 }
        position = frame
        pendingAudio = []
        audioDecodedTo = 0
        audioPosition = (frameCount == 0 ? time : frameDuration * Int64(frame)).ticks(timescale: 48000)
    }

    func nextPicture() throws -> VideoPicture? {
        guard position < frameCount else { return nil }
        if let stall, stall.frame == position { Thread.sleep(forTimeInterval: stall.seconds) }
        trickle?.waitUntilFetched(frameDuration * Int64(position + 1))
        defer { position += 1 }
        return ScriptedPicture(pts: frameDuration * Int64(position), index: position)
    }

    func nextMedia(audioFormat: AudioFormat?) throws -> DecodedMedia? {
        guard let audioFormat, hasAudio else { return try nextPicture().map { .picture($0) } }
        if !pendingAudio.isEmpty { return .audio(pendingAudio.removeFirst()) }
        let rate = Int64(audioFormat.sampleRate)
        if frameCount == 0 {
            let total = frameDuration.ticks(timescale: rate)
            guard audioPosition < total else { return nil }
            let count = min(1024, total - audioPosition)
            defer { audioPosition += count }
            return .audio(block(from: audioPosition, count: count, format: audioFormat))
        }
        guard let picture = try nextPicture() else { return nil }
        // The audio under this picture (and `audioLead` past it), in blocks of at most 1024 frames.
        let itemEnd = (frameDuration * Int64(frameCount)).ticks(timescale: rate)
        let end = min(itemEnd, (picture.pts + frameDuration + audioLead).ticks(timescale: rate))
        var start = max(picture.pts.ticks(timescale: rate), audioDecodedTo)
        audioDecodedTo = max(audioDecodedTo, end)
        while start < end {
            let count = min(1024, end - start)
            pendingAudio.append(block(from: start, count: count, format: audioFormat))
            start += count
        }
        return .picture(picture)
    }

    private func block(from first: Int64, count: Int64, format: AudioFormat) -> AudioBlock {
        var samples: [Float] = []
        samples.reserveCapacity(Int(count) * format.channelCount)
        for frame in first..<(first + count) {
            for channel in 0..<format.channelCount { samples.append(channel == 0 ? Float(frame) : -Float(frame)) }
        }
        return AudioBlock(pts: MediaTime(first, per: Int64(format.sampleRate)), format: format, samples: samples)
    }
}

/// Paints its frame index into the destination, so a canvas shows which frame is up. Its leftmost
/// `edgeColumns` source columns are blue 255 instead of 100, scaled nearest-neighbour like the
/// rest, so a canvas also shows which part of the source a scaling mode kept and how wide it drew
/// it (scripted media is upright: no rotation).
final class ScriptedPicture: VideoPicture, @unchecked Sendable {
    let pts: MediaTime
    let index: Int
    static let edgeColumns = 8

    init(pts: MediaTime, index: Int) {
        self.pts = pts
        self.index = index
    }

    static func body(index: Int) -> RGBColor { RGBColor(red: UInt8(index % 256), green: 200, blue: 100) }
    static func edge(index: Int) -> RGBColor { RGBColor(red: UInt8(index % 256), green: 200, blue: 255) }

    func draw(into buffer: PixelBuffer, placement: VideoPlacement, background: RGBColor) throws {
        let crop = placement.sourceCrop, destination = placement.destination
        buffer.fill(outside: destination, with: background)
        // Destination columns whose nearest source column is in the edge.
        let edgeWidth = (0..<destination.width).first { crop.x + $0 * crop.width / destination.width >= Self.edgeColumns }
            ?? destination.width
        buffer.fill(PixelRect(x: destination.x, y: destination.y, width: edgeWidth, height: destination.height),
                    with: Self.edge(index: index))
        buffer.fill(PixelRect(x: destination.x + edgeWidth, y: destination.y, width: destination.width - edgeWidth,
                              height: destination.height), with: Self.body(index: index))
    }
}

/// Collects events from the present thread and lets a test wait for a condition on them.
final class EventRecorder: @unchecked Sendable {
    private let condition = NSCondition()
    private var recorded: [PlayerEvent] = []

    var events: [PlayerEvent] {
        condition.lock()
        defer { condition.unlock() }
        return recorded
    }

    func record(_ event: PlayerEvent) {
        condition.lock()
        recorded.append(event)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits (up to `seconds` of real time) until `done` holds for the events so far.
    @discardableResult
    func wait(seconds: Double = 10, until done: ([PlayerEvent]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !done(recorded) {
            if !condition.wait(until: deadline) { return done(recorded) }
        }
        return true
    }

    var frames: [(item: Int, pts: MediaTime, time: MediaTime, dropped: Bool)] {
        events.compactMap {
            if case .frame(let item, let pts, let time, let dropped, _) = $0 { return (item, pts, time, dropped) }
            return nil
        }
    }
}

extension [PlayerEvent] {
    var frameCount: Int { filter { if case .frame = $0 { true } else { false } }.count }
}
