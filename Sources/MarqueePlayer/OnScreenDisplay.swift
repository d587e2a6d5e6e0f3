import MarqueeCore

/// The media controller's labels on the screen, and the status card: when they show, how they
/// fade, and the painted images, which are painted again only when what they say changes. Belongs
/// to the present thread, which blends it into each picture it draws after scaling (only the
/// panel's rectangle is touched) and redraws on its own while no frames flow (paused, stopped).
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
        guard opacity > 0 else { return }
        var content = content()
        let upright = buffer.size.rotated(by: rotation)
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
                return
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
        buffer.blend(image, x: x, y: y, opacity: opacity, turnedClockwise: rotation)
        if let progress, let bar, !bar.isEmpty {
            buffer.blend(fill(progress, size: bar.size), x: x + bar.x, y: y + bar.y, opacity: opacity, turnedClockwise: rotation)
        }
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
