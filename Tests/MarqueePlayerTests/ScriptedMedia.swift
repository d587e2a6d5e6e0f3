import Foundation
import MarqueeCore
import Synchronization

/// Media for engine logic tests: each URL names a script of frames or a failure. Real decoding is
/// tested in MarqueeMediaTests and end to end; here only the engine's decisions are under test.
final class ScriptedMedia: MediaOpening {
    enum Script: Sendable {
        /// `frames` pictures every `frameDuration`, keyframes every 10.
        case video(frames: Int, frameDuration: MediaTime)
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
        case .video(let frames, let frameDuration)?:
            return ScriptedReader(url: url, frameCount: frames, frameDuration: frameDuration, still: false)
        case .still?:
            return ScriptedReader(url: url, frameCount: 1, frameDuration: .zero, still: true)
        case .failure(let reason)?:
            throw PlaybackError(url: url, reason: reason)
        case nil:
            throw PlaybackError(url: url, reason: "no such file")
        }
    }
}

final class ScriptedReader: MediaReader {
    let asset: Asset
    private let frameDuration: MediaTime
    private let frameCount: Int
    private var position = 0

    init(url: String, frameCount: Int, frameDuration: MediaTime, still: Bool) {
        self.frameCount = frameCount
        self.frameDuration = frameDuration
        asset = Asset(url: url, duration: still ? nil : frameDuration * Int64(frameCount),
                      naturalSize: PixelSize(width: 64, height: 36), codedSize: PixelSize(width: 64, height: 36),
                      sampleAspectRatio: .square, rotation: .none, mediaTypes: [.video],
                      tracks: [Track(index: 0, mediaType: .video, codecName: "scripted", isDecodable: true)],
                      isSeekable: true, isStillImage: still, containerName: "scripted")
    }

    func seek(to time: MediaTime) throws {
        var frame = 0
        while frame + 10 < frameCount && frameDuration * Int64(frame + 10) <= time { frame += 10 }
        position = frame
    }

    func nextPicture() throws -> VideoPicture? {
        guard position < frameCount else { return nil }
        defer { position += 1 }
        return ScriptedPicture(pts: frameDuration * Int64(position), index: position)
    }
}

/// Paints its frame index into the destination, so a canvas shows which frame is up.
final class ScriptedPicture: VideoPicture, @unchecked Sendable {
    let pts: MediaTime
    let index: Int

    init(pts: MediaTime, index: Int) {
        self.pts = pts
        self.index = index
    }

    func draw(into buffer: PixelBuffer, placement: VideoPlacement, background: RGBColor) throws {
        buffer.fill(outside: placement.destination, with: background)
        buffer.fill(placement.destination, with: RGBColor(red: UInt8(index % 256), green: 200, blue: 100))
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
            if case .frame(let item, let pts, let time, let dropped) = $0 { return (item, pts, time, dropped) }
            return nil
        }
    }
}

extension [PlayerEvent] {
    var frameCount: Int { filter { if case .frame = $0 { true } else { false } }.count }
}
