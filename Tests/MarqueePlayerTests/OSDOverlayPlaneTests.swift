import Foundation
import MarqueeCore
import Testing
@testable import MarqueePlayer

/// A player paused on the first frame of a clip ("lead", 2 frames, then "clip", with
/// actionAtItemEnd pause: no command, so no labels yet), on the virtual clock, with the block-font
/// OSD: commands bring the labels up over a picture that stays the same.
private final class PausedOSDPlayer {
    let player: QueuePlayer
    let clock = VirtualClock()
    let recorder = EventRecorder()

    init(video: VideoOutput, display: OnScreenDisplay? = .withBlockFont(), rotation: Rotation = .none) {
        let frame = MediaTime(1, per: 25)
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        settings.displayRotation = rotation
        settings.actionAtItemEnd = .pause
        let recorder = recorder
        player = QueuePlayer(items: [QueueItem(url: "lead"), QueueItem(url: "clip", title: "Lobby Loop")], settings: settings,
                             opener: ScriptedMedia(["lead": .video(frames: 2, frameDuration: frame),
                                                    "clip": .video(frames: 100, frameDuration: frame)]),
                             video: video, display: display, clock: clock, events: { recorder.record($0) })
        player.start()
        recorder.wait { $0.contains(.playbackStateChanged(from: .playing, to: .paused)) }
    }

    /// A command that changes nothing on the picture brings the labels up. The clock moves on
    /// first: labels come up on a still picture only once no frame has been shown for a while.
    func bringUpTheLabels() {
        clock.advance(by: MediaTime(seconds: 1))
        player.send(.setRepeat(.all), from: .application)
    }

    /// Long past `osd.duration`: the labels have gone.
    func outwaitTheLabels() {
        clock.advance(by: MediaTime(seconds: 10))
    }

    func finish() {
        player.shutDown()
        player.waitUntilFinished()
    }
}

/// Polls `condition` for up to 10 s of real time.
private func eventually(_ condition: () -> Bool) -> Bool {
    for _ in 0..<1000 {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}

/// Where the output offers an overlay plane, the labels go there: the player hands the output the
/// panel as one premultiplied picture, draws the video without it, and hides the plane (nil) once
/// the labels have gone. Where the output refuses the plane, or has none, they are blended.
@Suite struct OSDOverlayPlaneTests {
    static let screen = PixelSize(width: 256, height: 144)

    @Test func theLabelsGoToThePlaneAndTheFrameIsNotBlended() {
        let output = OverlayPlaneTestOutput(size: Self.screen)
        let fixture = PausedOSDPlayer(video: output)
        defer { fixture.finish() }
        let plain = output.framePixels
        let presented = output.frames.presentedCount
        fixture.bringUpTheLabels()
        #expect(eventually { output.shown != nil })
        guard let picture = output.shown else { return }

        // The panel as the OSD lays it out on 256x144: 6 px from the bottom (144 / 24), centred.
        #expect(PixelRect(size: Self.screen).contains(picture.frame))
        #expect(picture.frame.maxY == 144 - 6 && picture.frame.x == (256 - picture.frame.width) / 2, "\(picture.frame)")
        #expect(picture.image.pixels.contains { $0 >> 24 > 0 }, "an empty picture")
        // The picture was drawn again with the labels, and the labels are not in it.
        #expect(output.frames.presentedCount > presented)
        #expect(output.framePixels == plain)

        fixture.outwaitTheLabels()
        #expect(eventually { output.changes.last == .some(nil) }, "the plane is never hidden: \(output.changes.map { $0?.frame })")
        #expect(output.shown == nil)
        #expect(output.staged.last == .some(nil))
        #expect(output.framePixels == plain)
    }

    /// The plane's picture laid over the video (as the hardware lays it) is what blending draws,
    /// on a landscape screen and on a portrait one turned in software, where the picture handed to
    /// the plane is turned with the video.
    @Test(arguments: [Rotation.none, .clockwise90])
    func thePlanesPictureOverTheFrameLooksLikeTheBlendedFrame(_ rotation: Rotation) {
        let planeOutput = OverlayPlaneTestOutput(size: Self.screen)
        let onPlane = PausedOSDPlayer(video: planeOutput, rotation: rotation)
        defer { onPlane.finish() }
        let blendOutput = HeadlessVideoOutput(size: Self.screen)
        let blended = PausedOSDPlayer(video: blendOutput, rotation: rotation)
        defer { blended.finish() }
        let plain = blendOutput.canvas.pixels
        let presented = blendOutput.presentedCount

        onPlane.bringUpTheLabels()
        blended.bringUpTheLabels()
        #expect(eventually { planeOutput.shown != nil && blendOutput.presentedCount > presented })
        guard let picture = planeOutput.shown else { return }
        #expect(blendOutput.canvas.pixels != plain, "nothing was blended")
        if rotation == .clockwise90 {
            // The panel runs down the screen's left side (the upright screen's bottom turned clockwise).
            #expect(picture.frame.height > picture.frame.width && picture.frame.x < Self.screen.width / 2, "\(picture.frame)")
        }

        let laid = planeOutput.frames.canvas.withPixelBuffer { Canvas(copying: $0) }
        laid.withPixelBuffer { _ = $0.blend(picture.image, x: picture.frame.x, y: picture.frame.y) }
        var worst = 0
        for (a, b) in zip(laid.pixels, blendOutput.canvas.pixels) {
            worst = max(worst, RGBColor(xrgb8888: a).distance(to: RGBColor(xrgb8888: b)))
        }
        #expect(worst <= 2, "largest difference \(worst)")
    }

    /// The output refuses the plane (a driver rejecting it): the player blends from then on and
    /// never hands the plane anything again.
    @Test func whenTheOutputRefusesThePlaneTheLabelsAreBlended() {
        let output = OverlayPlaneTestOutput(size: Self.screen, accepts: false)
        let fixture = PausedOSDPlayer(video: output)
        defer { fixture.finish() }
        let plain = output.framePixels
        fixture.bringUpTheLabels()
        #expect(eventually { output.framePixels != plain })
        fixture.outwaitTheLabels()
        #expect(eventually { output.framePixels == plain })
        #expect(output.staged.count == 1)
        #expect(output.changes.isEmpty)
    }

    @Test func withoutAPlaneTheLabelsAreBlended() {
        let output = OverlayPlaneTestOutput(size: Self.screen, availability: .unavailable("no ARGB overlay plane on this CRTC"))
        let fixture = PausedOSDPlayer(video: output)
        defer { fixture.finish() }
        let plain = output.framePixels
        fixture.bringUpTheLabels()
        #expect(eventually { output.framePixels != plain })
        #expect(output.staged.isEmpty)
    }

    /// The line the log says at start (`osd: ...`): where the labels are drawn, and why.
    @Test func theChoiceIsSaidOnce() {
        let size = PixelSize(width: 16, height: 16)
        func drawing(_ video: VideoOutput, _ display: OnScreenDisplay? = .withBlockFont()) -> String? {
            QueuePlayer(items: [], settings: PlayerSettings(), opener: ScriptedMedia([:]), video: video, display: display,
                        clock: VirtualClock(), events: { _ in }).osdDrawing
        }
        #expect(drawing(OverlayPlaneTestOutput(size: size)) == "drawn on overlay plane 42 (ARGB8888)")
        #expect(drawing(OverlayPlaneTestOutput(size: size, availability: .unavailable("no ARGB overlay plane on this CRTC")))
                == "blended into the picture (no ARGB overlay plane on this CRTC)")
        #expect(drawing(HeadlessVideoOutput(size: size)) == "blended into the picture (the output has no overlay plane)")
        // No labels (the status card alone, or no OSD at all): nothing to say.
        #expect(drawing(OverlayPlaneTestOutput(size: size), .withBlockFont(enabled: false)) == nil)
        #expect(drawing(OverlayPlaneTestOutput(size: size), nil) == nil)
    }
}
