import MarqueeCore

/// The media controller's labels on the screen, and the status card: when they show, how they
/// fade, and the painted images, which are painted again only when what they say changes. Belongs
/// to the present thread, which blends it into each picture it draws after scaling (only the
/// panel's rectangle is touched), or hands it to an overlay plane where the output has one, and
/// redraws on its own while no frames flow (paused, stopped). The status card is always blended.
public final class OnScreenDisplay {
    /// What the status card says besides the failures: the device, for whoever stands in front.
    public struct DeviceFacts: Sendable {
        public var hostname: String
        public var addresses: [String]
        public init(hostname: String, addresses: [String]) {
            self.hostname = hostname
            self.addresses = addresses
        }
    }

    public let settings: OSDSettings
    private let painter: OSDPainter
    private let cardPainter: StatusCardPainter
    private let deviceFacts: @Sendable () -> DeviceFacts
    private let version: String
    private let now: @Sendable () -> String
    /// One line per painting failure kind (a glyph the font lacks), not one per frame.
    private let reportError: (String) -> Void
    private var lastError: String?

    /// Shown until then (clock time), fading over its last `OSDSettings.fade`.
    private var shownUntil: MediaTime?
    /// The volume bar shows after a volume command, until the labels go.
    private(set) var showsVolume = false
    /// Digits typed on a keypad so far, shown while typed.
    var numericEntry: String?
    /// The panel as last painted, without the progress bar's fill, and where its bar's track is.
    private var painted: (content: OSDContent, width: Int, pixelSize: Int, image: OverlayImage, bar: PixelRect?)?
    /// The bar's fill alone, painted again as playback moves (a few thousand pixels, not the panel).
    private var paintedFill: (progress: Double, image: OverlayImage)?
    /// The last card painted: a back-off round draws the same card again, not paints it.
    private var paintedCard: (content: StatusCardContent, size: PixelSize, image: OverlayImage)?
    /// The last picture made for an overlay plane, and from what.
    private var composed: (key: ComposedKey, picture: OverlayPicture)?
    /// The OSD was on the last picture drawn: once it has gone, one more redraw takes it off.
    var wasDrawn = false

    /// `clockTime` formats the wall time for the card (the caller's time zone and format).
    public init(settings: OSDSettings, painter: OSDPainter, cardPainter: StatusCardPainter, version: String,
                deviceFacts: @escaping @Sendable () -> DeviceFacts, clockTime: @escaping @Sendable () -> String,
                reportError: @escaping (String) -> Void = { _ in }) {
        self.settings = settings
        self.painter = painter
        self.cardPainter = cardPainter
        self.version = version
        self.deviceFacts = deviceFacts
        self.now = clockTime
        self.reportError = reportError
    }

    /// A transport command was applied at `time`: the labels show for `settings.duration`.
    func trigger(at time: MediaTime, volume: Bool) {
        guard settings.enabled else { return }
        if volume { showsVolume = true } else if !isShowing(at: time) { showsVolume = false }
        shownUntil = time + settings.duration
    }

    func isShowing(at time: MediaTime) -> Bool {
        guard let shownUntil else { return false }
        return time < shownUntil
    }

    /// 1 until the fade starts, then down to 0 at the end.
    func opacity(at time: MediaTime) -> Double {
        guard let shownUntil, time < shownUntil else { return 0 }
        let left = (shownUntil - time).seconds
        let fade = min(OSDSettings.fade.seconds, settings.duration.seconds)
        return fade > 0 ? min(1, left / fade) : 1
    }

    /// Fading: redrawn often so it fades smoothly when no frames flow.
    func isFading(at time: MediaTime) -> Bool {
        let opacity = opacity(at: time)
        return opacity > 0 && opacity < 1
    }

    /// The panel's placement on the upright screen, its width and text size.
    private func layout(upright: PixelSize) -> (width: Int, pixelSize: Int, margin: Int) {
        let pixelSize = max(8, Int((Double(upright.height) / 30 * settings.scale).rounded()))
        let margin = max(4, upright.height / 24)
        let width = max(1, min(upright.width - 2 * margin, Int(Double(pixelSize) * 30)))
        return (width, pixelSize, margin)
    }

    /// Blends the labels `content` gives into `buffer` at `time`. Once they have gone nothing is
    /// asked of `content`: every frame is drawn through here, and under TCG even formatting the
    /// labels on the present thread was seen to cost a frame of a gapless loop.
    func blend(_ content: () -> OSDContent, into buffer: PixelBuffer, rotation: Rotation, at time: MediaTime) {
        let opacity = opacity(at: time)
        wasDrawn = opacity > 0
        guard opacity > 0, let panel = panel(content, upright: buffer.size.rotated(by: rotation)) else { return }
        buffer.blend(panel.image, x: panel.x, y: panel.y, opacity: opacity, turnedClockwise: rotation)
        if let progress = panel.progress, let bar = panel.bar, !bar.isEmpty {
            buffer.blend(fill(progress, size: bar.size), x: panel.x + bar.x, y: panel.y + bar.y, opacity: opacity, turnedClockwise: rotation)
        }
    }

    /// The labels as an overlay plane shows them over a `screen`-sized buffer at `time`: the panel
    /// and its bar's fill in one picture, faded, turned with a picture turned in software, placed
    /// in the buffer's coordinates and cropped to it; nil once they have gone. The picture is made
    /// again only when something in it changed, so an unchanged one is the same value (and the
    /// same storage) as the last.
    func overlayPicture(_ content: () -> OSDContent, screen: PixelSize, rotation: Rotation, at time: MediaTime) -> OverlayPicture? {
        let opacity = opacity(at: time)
        wasDrawn = opacity > 0
        let upright = screen.rotated(by: rotation)
        guard opacity > 0, let panel = panel(content, upright: upright) else { return nil }
        let key = ComposedKey(panel: panel.image, progress: panel.progress, opacity: Int((opacity * 256).rounded()),
                              rotation: rotation, screen: screen)
        if let composed, composed.key == key { return composed.picture }
        var image = panel.image.faded(opacity)
        if let progress = panel.progress, let bar = panel.bar, !bar.isEmpty {
            image.composite(fill(progress, size: bar.size), x: bar.x, y: bar.y, opacity: opacity)
        }
        let placed = PixelRect(x: panel.x, y: panel.y, width: image.size.width, height: image.size.height)
            .rotated(rotation, within: upright)
        let x0 = max(0, placed.x), y0 = max(0, placed.y)
        let x1 = min(screen.width, placed.maxX), y1 = min(screen.height, placed.maxY)
        guard x0 < x1, y0 < y1 else { return nil }
        let visible = image.turned(clockwise: rotation)
            .cropped(to: PixelRect(x: x0 - placed.x, y: y0 - placed.y, width: x1 - x0, height: y1 - y0))
        let picture = OverlayPicture(image: visible, x: x0, y: y0)
        composed = (key, picture)
        return picture
    }

    /// What an overlay picture was made from: the same again gives the same picture.
    private struct ComposedKey: Equatable {
        var panel: OverlayImage
        var progress: Double?
        /// In 256ths, as the pixels are faded.
        var opacity: Int
        var rotation: Rotation
        var screen: PixelSize
    }

    /// The panel painted for what `content` says now (painted again only when that changed), its
    /// top-left on the `upright` screen, its bar's track and the progress to fill it with; nil when
    /// painting failed (reported once).
    private func panel(_ content: () -> OSDContent, upright: PixelSize)
        -> (image: OverlayImage, x: Int, y: Int, bar: PixelRect?, progress: Double?)? {
        var content = content()
        let (width, pixelSize, margin) = layout(upright: upright)
        if !showsVolume { content.volume = nil }
        content.numericEntry = numericEntry
        // The panel is painted with the bar's track only; the fill goes over it on its own, so the
        // panel is painted again when its text changes, not as the bar moves every frame.
        let progress = content.progress
        content.progress = nil
        let image: OverlayImage
        let bar: PixelRect?
        if let painted, painted.content == content, painted.width == width, painted.pixelSize == pixelSize {
            (image, bar) = (painted.image, painted.bar)
        } else {
            do {
                image = try painter.paint(content, width: width, pixelSize: pixelSize)
            } catch {
                report("osd: \(error)")
                return nil
            }
            bar = painter.progressBarRect
            painted = (content, width, pixelSize, image, bar)
        }
        let x = (upright.width - image.size.width) / 2
        let y = switch settings.position {
        case .top: margin
        case .center: (upright.height - image.size.height) / 2
        case .bottom: upright.height - image.size.height - margin
        }
        return (image, x, y, bar, progress)
    }

    /// The progress bar's fill, `size` of the track, painted again only when the progress moved.
    private func fill(_ progress: Double, size: PixelSize) -> OverlayImage {
        if let paintedFill, paintedFill.progress == progress, paintedFill.image.size == size { return paintedFill.image }
        var image = OverlayImage(size: size)
        image.fill(PixelRect(size: size), leftFraction: progress, with: painter.textColor)
        paintedFill = (progress, image)
        return image
    }

    /// Paints the status card over all of `buffer`: why nothing plays, and the device.
    func drawStatusCard(headline: String, reasons: [String], into buffer: PixelBuffer, rotation: Rotation) {
        let facts = deviceFacts()
        let content = StatusCardContent(headline: headline, reasons: reasons, hostname: facts.hostname,
                                        addresses: facts.addresses, version: version, time: now())
        let size = buffer.size.rotated(by: rotation)
        do {
            let card: OverlayImage
            if let paintedCard, paintedCard.content == content, paintedCard.size == size {
                card = paintedCard.image
            } else {
                card = try cardPainter.paint(content, size: size)
                paintedCard = (content, size, card)
            }
            buffer.blend(card, x: 0, y: 0, opacity: 1, turnedClockwise: rotation)
        } catch {
            report("status card: \(error)")
        }
    }

    private func report(_ message: String) {
        if message != lastError { reportError(message) }
        lastError = message
    }
}
