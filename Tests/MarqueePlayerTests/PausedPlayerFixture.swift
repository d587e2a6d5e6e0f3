import MarqueeCore
import Foundation
@testable import MarqueePlayer

/// Seek completions, in the order they ran.
final class CompletionLog: @unchecked Sendable {
    private let condition = NSCondition()
    private var values: [Bool] = []

    func append(_ value: Bool) {
        condition.withLock {
            values.append(value)
            condition.broadcast()
        }
    }

    var all: [Bool] { condition.withLock { values } }

    /// Waits (up to 10 s of real time) until `count` completions have run.
    func wait(forCount count: Int) {
        let deadline = Date().addingTimeInterval(10)
        condition.withLock {
            while values.count < count && condition.wait(until: deadline) {}
        }
    }
}

/// Commands on a paused player, so each result is one deterministic frame: a 2-frame item
/// ("lead", index 0) with pauseAfterCurrentItem leaves the player paused on the first frame of
/// "clip" (index 1, 25 fps, keyframes every 10 frames), with `following` after it; repeat off.
final class PausedPlayerFixture {
    static let frameDuration = MediaTime(1, per: 25)

    let recorder = EventRecorder()
    let player: QueuePlayer
    let output: HeadlessVideoOutput
    let completions = CompletionLog()

    /// `clipFrames` long clip; `following` items play after it, each 4 frames unless scripted in
    /// `media`; `screen` is the headless output's size.
    init(clip: QueueItem = QueueItem(url: "clip"), clipFrames: Int = 100, following: [QueueItem] = [],
         screen: PixelSize = PixelSize(width: 64, height: 36), configure: (inout PlayerSettings) -> Void = { _ in }) {
        var scripts: [String: ScriptedMedia.Script] = ["lead": .video(frames: 2, frameDuration: Self.frameDuration),
                                                       clip.url: .video(frames: clipFrames, frameDuration: Self.frameDuration)]
        for item in following where scripts[item.url] == nil {
            scripts[item.url] = .video(frames: 4, frameDuration: Self.frameDuration)
        }
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        configure(&settings)
        let recorder = recorder
        output = HeadlessVideoOutput(size: screen)
        player = QueuePlayer(items: [QueueItem(url: "lead"), clip] + following, settings: settings,
                             opener: ScriptedMedia(scripts), video: output, clock: VirtualClock(),
                             events: { recorder.record($0) })
        player.send(.pauseAfterCurrentItem)
        player.start()
        recorder.wait { $0.contains(.playbackStateChanged(from: .playing, to: .paused)) }
    }

    /// Seeks and waits until a frame for it is on screen.
    func seek(to time: MediaTime, toleranceBefore: MediaTime = .zero) -> MediaTime? {
        let before = recorder.frames.count
        let completed = completions.all.count
        player.seek(to: time, toleranceBefore: toleranceBefore) { [completions] finished in completions.append(finished) }
        completions.wait(forCount: completed + 1)
        recorder.wait { $0.frameCount > before }
        return recorder.frames.last?.pts
    }

    /// Sends a command that shows a frame and waits for it; returns its pts.
    func command(_ command: Command) -> MediaTime? {
        let before = recorder.frames.count
        player.send(command)
        recorder.wait { $0.frameCount > before }
        return recorder.frames.last?.pts
    }

    /// Sends a command and waits until `done` holds for the events that follow it.
    @discardableResult
    func command(_ command: Command, until done: @escaping ([PlayerEvent]) -> Bool) -> Bool {
        let before = recorder.events.count
        player.send(command)
        return recorder.wait { done(Array($0.dropFirst(before))) }
    }

    func finish() {
        player.shutDown()
        player.waitUntilFinished()
    }
}
