import Foundation
import MarqueeCore
import MarqueeMedia
@testable import MarqueePlayer
import Synchronization
import Testing

/// The player draws the labels itself: a real still (decoded by FFmpeg) held on the headless
/// output, the real fonts, and tesseract reading the screen back. Keypad digits reach the player
/// from the input thread (`showNumericEntry`), which needs a keypad the host does not have: this
/// feeds the digits the way the input thread does.
@Suite struct PlayerOSDTests {
    /// A file the ffmpeg CLI makes once per test process from `arguments` (its input and output options).
    private static func generated(_ name: String, _ arguments: [String]) throws -> String {
        let path = NSTemporaryDirectory() + "marquee-osd-\(getpid())-\(name)"
        if FileManager.default.fileExists(atPath: path) { return path }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-nostdin", "-loglevel", "error", "-y"] + arguments + [path]
        try process.run()
        process.waitUntilExit()
        return path
    }

    static func still() throws -> String {
        try generated("still.png", ["-f", "lavfi", "-i", "color=c=0x406080:size=320x180", "-frames:v", "1"])
    }

    /// A 1 fps clip: each frame is drawn ahead, up to a second before it is due.
    static func slowClip() throws -> String {
        try generated("slow.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=1:duration=30",
                                   "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"])
    }

    static func makePlayer(_ rotation: Rotation = .none, size: PixelSize = PixelSize(width: 1280, height: 720),
                           media: String? = nil) throws -> (QueuePlayer, EventBox) {
        let text = try TestFont.renderer()
        var settings = OSDSettings()
        settings.duration = MediaTime(seconds: 30)
        let display = OnScreenDisplay(settings: settings, painter: OSDPainter(text: text), cardPainter: StatusCardPainter(text: text),
                                      version: "marquee test", deviceFacts: { .init(hostname: "kiosk-7", addresses: ["eth0 192.0.2.7"]) },
                                      clockTime: { "2026-11-25 12:00" })
        var playerSettings = PlayerSettings()
        playerSettings.displayRotation = rotation
        let events = EventBox()
        let item = try media.map { QueueItem(url: $0, title: "Museum Map") } ?? QueueItem(url: try still(), duration: MediaTime(seconds: 60), title: "Museum Map")
        let player = QueuePlayer(items: [item],
                                 settings: playerSettings, opener: FFmpegMediaOpener(), video: HeadlessVideoOutput(size: size),
                                 display: display, clock: MonotonicClock(), events: { event in events.list.withLock { $0.append(event) } })
        return (player, events)
    }

    static func screen(of player: QueuePlayer) -> Canvas? {
        let shot = Mutex<Canvas?>(nil)
        let done = DispatchSemaphore(value: 0)
        player.screenshot { canvas in
            shot.withLock { $0 = canvas }
            done.signal()
        }
        _ = done.wait(timeout: .now() + 10)
        return shot.withLock { $0 }
    }

    static func waitForFrame(_ events: EventBox) -> Bool {
        for _ in 0..<300 {
            if events.list.withLock({ $0.contains { if case .frame = $0 { true } else { false } } }) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    @Test func digitsTypedOnAKeypadAreShownAsTheyAreTyped() throws {
        let (player, events) = try Self.makePlayer()
        player.start()
        defer { player.shutDown(); _ = player.waitUntilFinished(graceAfterShutDown: 10) }
        #expect(Self.waitForFrame(events))
        player.showNumericEntry("12")
        Thread.sleep(forTimeInterval: 0.3)
        let canvas = try #require(Self.screen(of: player))
        let text = try OCRReadBackTests.read(canvas, pageSegmentation: 11)
        // tesseract reads the spaced digits "1 2 _" as "12_".
        #expect(text.replacingOccurrences(of: " ", with: "").contains("Gotoitem12"), "\(text)")
        #expect(text.contains("Museum Map"), "\(text)")
    }

    /// At a slow frame rate the next frame is drawn ahead, up to a second before it is due: a
    /// command's labels go up over the picture on screen at once, not with that frame.
    @Test func theLabelsComeUpAtOnceOnASlowClip() throws {
        let (player, events) = try Self.makePlayer(media: try Self.slowClip())
        player.start()
        defer { player.shutDown(); _ = player.waitUntilFinished(graceAfterShutDown: 10) }
        #expect(Self.waitForFrame(events))
        // Just after a frame is shown the next one is drawn ahead and waits most of a second.
        let shown = events.list.withLock { $0.filter { if case .frame = $0 { true } else { false } }.count }
        for _ in 0..<300 where events.list.withLock({ $0.filter { if case .frame = $0 { true } else { false } }.count }) == shown {
            Thread.sleep(forTimeInterval: 0.01)
        }
        player.send(.setRepeat(.all), from: .application)
        Thread.sleep(forTimeInterval: 0.3)
        let canvas = try #require(Self.screen(of: player))
        let text = try OCRReadBackTests.read(canvas, pageSegmentation: 11)
        #expect(text.contains("Museum Map"), "\(text)")
    }

    /// A portrait screen (rotation 90, the picture turned in software): the labels are turned with
    /// the picture, so the viewer reads them upright.
    @Test func onAPortraitScreenTheLabelsReadUpright() throws {
        let (player, events) = try Self.makePlayer(.clockwise90, size: PixelSize(width: 1280, height: 720))
        player.start()
        defer { player.shutDown(); _ = player.waitUntilFinished(graceAfterShutDown: 10) }
        #expect(Self.waitForFrame(events))
        player.send(.command(.pause), from: .application)
        Thread.sleep(forTimeInterval: 0.3)
        let canvas = try #require(Self.screen(of: player))
        // The screenshot is the buffer as scanned out; the viewer's head is turned with the screen.
        let upright = canvas.withPixelBuffer { Canvas(copying: $0, turnedClockwise: Rotation.clockwise90.inverse) }
        let text = try OCRReadBackTests.read(upright, pageSegmentation: 11)
        #expect(text.contains("Museum Map"), "\(text)")
    }
}

final class EventBox: Sendable {
    let list = Mutex<[PlayerEvent]>([])
}

/// The player paints the panel with the bar's track only and lays the fill over it on its own (so
/// the panel is not painted again every frame): the screen comes out as the painter's whole panel
/// would, to within integer rounding.
@Suite struct OSDBarFillTests {
    @Test(arguments: [0.0, 0.37, 0.999])
    func theFillLaidOverThePanelLooksLikeOnePaintedPanel(progress: Double) throws {
        let text = try TestFont.renderer()
        let painter = OSDPainter(text: text)
        let display = OnScreenDisplay(settings: OSDSettings(), painter: painter, cardPainter: StatusCardPainter(text: text),
                                      version: "marquee test", deviceFacts: { .init(hostname: "kiosk", addresses: []) },
                                      clockTime: { "" })
        display.trigger(at: .zero, volume: false)
        let content = OSDContent(state: .playing, title: "Bar Test", index: 0, count: 3, positionLabel: "0:30",
                                 durationLabel: "1:00", remainingLabel: "-0:30", progress: progress, repeatMode: "all")
        let background = RGBColor(red: 200, green: 120, blue: 40)
        let screen = Canvas(size: PixelSize(width: 1280, height: 720), background: background)
        screen.withPixelBuffer { display.blend({ content }, into: $0, rotation: .none, at: .zero) }

        // Where the OSD puts a panel on a 1280x720 screen: text 720/30 = 24 px, margin 720/24 = 30,
        // 24 × 30 = 720 wide, centred, 30 from the bottom.
        let panel = try painter.paint(content, width: 720, pixelSize: 24)
        let reference = Canvas(size: PixelSize(width: 1280, height: 720), background: background)
        reference.withPixelBuffer { _ = $0.blend(panel, x: 280, y: 720 - panel.size.height - 30) }
        var worst = 0
        for (a, b) in zip(screen.pixels, reference.pixels) {
            for shift in [0, 8, 16] {
                worst = max(worst, abs(Int((a >> UInt32(shift)) & 0xFF) - Int((b >> UInt32(shift)) & 0xFF)))
            }
        }
        #expect(worst <= 2, "largest channel difference \(worst)")
        #expect(screen.pixels != Canvas(size: PixelSize(width: 1280, height: 720), background: background).pixels)
    }
}
