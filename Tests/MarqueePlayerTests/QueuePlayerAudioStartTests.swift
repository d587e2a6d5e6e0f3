import Foundation
import Synchronization
import MarqueeCore
import Testing
@testable import MarqueePlayer

private let frame25 = MediaTime(1, per: 25)

/// One ordered record of what the device and the screen were asked to do.
private final class StartLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    func append(_ entry: String) { lock.withLock { entries.append(entry) } }
    var all: [String] { lock.withLock { entries } }
}

/// A device that logs the first write it gets.
private final class FirstWriteDevice: AudioOutput, @unchecked Sendable {
    let format = AudioFormat.standard
    private let log: StartLog
    private let hasWritten = Mutex(false)

    init(log: StartLog) { self.log = log }

    func write(_ samples: [Float]) throws {
        let isFirst = hasWritten.withLock { written in
            defer { written = true }
            return !written
        }
        if isFirst { log.append("first write") }
    }

    func framesPlayed() -> Int64? { nil }
    func setPaused(_ paused: Bool) {}
    func drain() {}
}

/// A screen that logs when its first picture is drawn and when it is shown.
private final class LoggingScreen: VideoOutput, @unchecked Sendable {
    private let inner = HeadlessVideoOutput(size: PixelSize(width: 64, height: 36))
    private let log: StartLog
    private var draws = 0
    private var shows = 0

    init(log: StartLog) { self.log = log }

    var screenSize: PixelSize { inner.screenSize }

    func prepare(_ draw: (PixelBuffer) throws -> Void) throws {
        try inner.prepare(draw)
        draws += 1
        if draws == 1 { log.append("first picture drawn") }
    }

    func showPrepared() throws {
        try inner.showPrepared()
        shows += 1
        if shows == 1 { log.append("first picture shown") }
    }
}

@Suite struct QueuePlayerAudioStartTests {
    private func run(_ media: ScriptedMedia, _ urls: [String]) -> [String] {
        let log = StartLog()
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        let player = QueuePlayer(items: urls.map { QueueItem(url: $0) }, settings: settings, opener: media,
                                 video: LoggingScreen(log: log), audio: FirstWriteDevice(log: log),
                                 clock: VirtualClock(), events: { _ in })
        player.start()
        player.waitUntilFinished()
        return log.all
    }

    /// The sound starts with the picture, not a first frame's open-and-draw time ahead of it: the
    /// device gets nothing until the first picture is drawn. (It is then shown once the device is
    /// heard playing, or at once when nothing follows the device clock, so the write and the show
    /// may come in either order.)
    @Test func noSoundReachesTheDeviceBeforeTheFirstPicture() throws {
        let media = ScriptedMedia(["a": .video(frames: 10, frameDuration: frame25, withAudio: true)])
        let log = run(media, ["a"])
        let drawn = try #require(log.firstIndex(of: "first picture drawn"), "\(log)")
        let written = try #require(log.firstIndex(of: "first write"), "\(log)")
        #expect(drawn < written, "\(log)")
        #expect(log.contains("first picture shown"), "\(log)")
    }

    /// With no picture to wait for, the sound is not held: audio-only items play, and a failing
    /// first item does not keep the next one's sound back.
    @Test func itemsWithoutAPictureReleaseTheDevice() {
        let audioOnly = run(ScriptedMedia(["song": .audioOnly(seconds: 1)]), ["song"])
        #expect(audioOnly.contains("first write"), "\(audioOnly)")
        #expect(!audioOnly.contains("first picture drawn"))

        let afterFailure = run(ScriptedMedia(["bad": .failure("corrupt"), "song": .audioOnly(seconds: 1)]), ["bad", "song"])
        #expect(afterFailure.contains("first write"), "\(afterFailure)")
    }
}
