import MarqueeCore

/// The on-screen display on the present thread: transport commands (from keys, the control socket
/// or signals alike, since they all come down the one command path) show the labels; each frame
/// drawn carries them; while no frames flow (paused, stopped, a still held) the last picture is
/// drawn again with them until they have faded. When every item has failed, or there is nothing
/// to play, the status card takes the screen instead of black.
extension QueuePlayer {
    /// How often the labels are redrawn while fading and no frames flow: smooth enough at 25 Hz.
    static let fadeRedrawInterval = MediaTime(1, per: 25)

    /// A command was applied: the labels come up (the volume bar too for volume commands).
    func showOSD(after action: ControlAction) {
        guard let osd else { return }
        // Any command ends a half-typed item number, as the key interpreter abandons it.
        osd.numericEntry = nil
        switch action {
        case .quit, .reload, .setActionAtItemEnd, .command(.displayOff), .command(.displayOn), .command(.toggleDisplay):
            return
        case .command(.volumeUp), .command(.volumeDown), .command(.toggleMute), .setVolume, .setMuted:
            osd.trigger(at: realClock.now(), volume: true)
        default:
            osd.trigger(at: realClock.now(), volume: false)
        }
        osdState.needsRedraw = true
    }

    /// Keypad digits typed so far (nil: the entry is over), from the input thread.
    public func showNumericEntry(_ digits: String?) {
        enqueue(.numericEntry(digits))
    }

    func applyNumericEntry(_ digits: String?) {
        guard let osd else { return }
        osd.numericEntry = digits
        if digits != nil { osd.trigger(at: realClock.now(), volume: false) }
        osdState.needsRedraw = true
    }

    /// What the labels say now, from the present thread's own state (what is on screen).
    func osdContent() -> OSDContent {
        let index = current?.index ?? cursor.current ?? 0
        let item = index < items.count ? items[index] : nil
        let title = item.map { $0.title ?? Self.fileName($0.url) } ?? ""
        let start = current?.timing?.start ?? .zero
        let elapsed = current?.position.map { max(.zero, $0 - start) }
        let duration = current?.timing?.length ?? current?.asset?.duration
        var progress: Double?
        if let elapsed, let duration, duration > .zero { progress = min(1, max(0, elapsed.seconds / duration.seconds)) }
        let state: OSDContent.State = switch machine.state {
        case .playing, .seekingForward, .seekingBackward: .playing
        case .paused: .paused
        case .stopped: .stopped
        case .interrupted: .buffering
        }
        var content = OSDContent(state: state, title: title, index: index, count: items.count,
                                 positionLabel: TimeLabel.position(elapsed ?? (current == nil ? nil : .zero)),
                                 durationLabel: TimeLabel.position(duration),
                                 remainingLabel: TimeLabel.remaining(position: elapsed, duration: duration),
                                 progress: progress, repeatMode: cursor.repeatMode.rawValue)
        content.volume = volume.volume
        content.muted = volume.isMuted
        content.pauseAfterItem = cursor.pauseAfterCurrentItem
        content.bufferingSeconds = osdState.stallSeconds
        content.show = osd?.settings.show ?? content.show
        return content
    }

    static func fileName(_ url: String) -> String {
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        return path.split(separator: "/").last.map(String.init) ?? url
    }

    /// The labels go on the output's overlay plane when it has one (not for the status card alone:
    /// the card covers the screen and is always blended); otherwise they are blended into each
    /// picture. Decided once, at start.
    static func chooseOSDDrawing(_ osd: OnScreenDisplay?, video: VideoOutput) -> (OverlayPlaneOutput?, String?) {
        guard let osd, osd.settings.enabled else { return (nil, nil) }
        guard let output = video as? OverlayPlaneOutput else {
            return (nil, "blended into the picture (the output has no overlay plane)")
        }
        switch output.overlayPlane {
        case .available(let plane): return (output, "drawn on \(plane)")
        case .unavailable(let reason): return (nil, "blended into the picture (\(reason))")
        }
    }

    /// Before a picture is drawn: hands the overlay plane the labels as they are now (nil once they
    /// have gone, or under the status card), to change with that picture's flip. True when the
    /// plane shows them, so the picture is drawn without; false: blend them into it. When the output
    /// refuses the plane (it said why, once), the labels are blended from then on.
    func stageOSD() -> Bool {
        guard let osd, let plane = osdState.plane else { return false }
        var picture: OverlayPicture?
        if !onScreen.isStatusCard {
            picture = osd.overlayPicture({ osdContent() }, screen: video.screenSize, rotation: settings.displayRotation, at: realClock.now())
            osdState.preparedHasLabels = osd.wasDrawn
        }
        if picture == osdState.staged { return true }
        guard plane.stageOverlay(picture) else {
            osdState.losePlane()
            return false
        }
        osdState.staged = picture
        return true
    }

    /// The status card covers the screen: labels on the plane above it go with its flip.
    private func hideOSDPlane() {
        guard let plane = osdState.plane, osdState.staged != nil else { return }
        if !plane.stageOverlay(nil) { osdState.plane = nil }
        osdState.staged = nil
    }

    /// Blends the labels into a picture being drawn.
    func blendOSD(into buffer: PixelBuffer) {
        guard let osd, !onScreen.isStatusCard else { return }
        osd.blend({ osdContent() }, into: buffer, rotation: settings.displayRotation, at: realClock.now())
        osdState.preparedHasLabels = osd.wasDrawn
    }

    /// A frame went on screen: if it carries the labels, they no longer wait for a redraw.
    func noteShown() {
        guard osd != nil else { return }
        onScreen.frameShown(at: realClock.now())
        if osdState.preparedHasLabels { osdState.needsRedraw = false }
    }

    /// While no frames flow: draws the last picture again with the labels as they are now, when
    /// they came up, are fading, or have just gone (that last redraw takes them off). Returns how
    /// long the caller may wait before the next call is due.
    @discardableResult
    func refreshOSDWhileIdle() -> MediaTime? {
        guard let osd, !onScreen.isStatusCard else { return nil }
        let now = realClock.now()
        // Frames flowing carry the labels themselves. A frame drawn ahead but not due yet (a slow
        // frame rate: a 2 fps slideshow) does not count: the labels go up over the one on screen.
        if let shown = onScreen.pictureShownAt, now - shown < Self.fadeRedrawInterval * 3 { return nil }
        let fading = osd.isFading(at: now)
        let gone = !osd.isShowing(at: now)
        let due = osdState.lastRedrawAt.map { now - $0 >= Self.fadeRedrawInterval } ?? true
        guard osdState.needsRedraw || (fading && due) || (gone && osd.wasDrawn) else {
            return osd.isShowing(at: now) ? Self.fadeRedrawInterval : nil
        }
        redrawLastPicture()
        osdState.lastRedrawAt = now
        return Self.fadeRedrawInterval
    }

    /// The last picture drawn (or the background when there is none, as after a stop), with the labels.
    func redrawLastPicture() {
        onScreen.backBufferReplaced = true
        let onPlane = stageOSD()
        if let (picture, _) = onScreen.lastDrawn, current != nil { announceToMirrors(picture) }
        do {
            try video.present { buffer in
                if let (picture, placement) = onScreen.lastDrawn, current != nil {
                    try picture.draw(into: buffer, placement: placement, background: settings.background)
                } else {
                    buffer.fill(PixelRect(size: buffer.size), with: settings.background)
                }
                if !onPlane { blendOSD(into: buffer) }
            }
            osdState.needsRedraw = false
        } catch {
            emit(.error(message: "video output: \(error)"))
        }
    }

    /// Nothing can be played: the status card says why (one line per failing item, as the journal
    /// says it), with the device's name, addresses, version and time. The next picture replaces it.
    func showStatusCard(headline: String, footnote: String? = nil) {
        guard let osd, osd.settings.statusCard else { return }
        let reasons = failures.reasonsInOrder + (footnote.map { [$0] } ?? [])
        hideOSDPlane()
        do {
            try video.present { buffer in
                osd.drawStatusCard(headline: headline, reasons: reasons, into: buffer, rotation: settings.displayRotation)
            }
            onScreen.isStatusCard = true
        } catch {
            emit(.error(message: "video output: \(error)"))
        }
    }
}
