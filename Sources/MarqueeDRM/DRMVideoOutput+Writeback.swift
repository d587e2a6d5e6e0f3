import MarqueeCore

/// Screenshots through the screen's writeback connector where the card has one for its CRTC
/// (`DRMWritebackCapture`); otherwise, or once a capture failed, the front buffer is copied and
/// the OSD's plane laid over it in software (`DRMScreen.screenshot`).
extension DRMVideoOutput {
    /// Finds the writeback connector for `screen`'s CRTC; the log says once which way screenshots go.
    static func openWriteback(card: DRMCard, screen: DRMScreen, options: DRMOutputOptions,
                              log: DRMOutputLog) -> DRMWritebackCapture? {
        // The client cap needs atomic on the fd; `enableAtomic` answers as it did for the screen.
        guard options.allowsAtomic, card.device.enableAtomic() else {
            log.info("screenshot: software copy of the front buffer (legacy modesetting has no writeback connectors)")
            return nil
        }
        guard let crtcIndex = card.resources.crtcIDs.firstIndex(of: screen.crtcID) else {
            log.info("screenshot: software copy of the front buffer (CRTC \(screen.crtcID) is not among the card's)")
            return nil
        }
        switch DRMWritebackCapture.open(device: card.device, crtcID: screen.crtcID, crtcIndex: crtcIndex) {
        case .success(let capture):
            let modeset = capture.needsModeset ? " (attached and detached with ALLOW_MODESET: the driver counts it as a modeset)" : ""
            log.info("screenshot: writeback connector \(capture.id)\(modeset)")
            return capture
        case .failure(let refusal):
            log.info("screenshot: software copy of the front buffer (\(refusal.reason))")
            return nil
        }
    }

    /// Under the lock, on the present thread between frames: the composed picture, or nil when
    /// there is no writeback connector or it failed (one warning; the software copy from then on).
    func captureThroughWriteback(_ screen: DRMScreen, rotation: Rotation, log: DRMOutputLog) -> Canvas? {
        // A screen made again on another CRTC after a hotplug keeps the software copy.
        guard let writeback, writeback.crtcID == screen.crtcID else { return nil }
        let started = ContinuousClock.now
        do {
            // The attach commit must not meet a flip of ours still queued on the CRTC.
            try screen.flips.waitForPendingFlip()
            let modeSize = screen.rotatesInHardware ? screen.size.rotated(by: rotation) : screen.size
            let canvas = try writeback.capture(modeSize: modeSize)
            if !writebackHasCaptured {
                writebackHasCaptured = true
                let milliseconds = (ContinuousClock.now - started) / .milliseconds(1)
                log.info("screenshot: writeback connector \(writeback.id) captured the composed picture (\(Int(milliseconds.rounded())) ms)")
            }
            return canvas
        } catch {
            self.writeback = nil
            log.warning("screenshot: writeback connector \(writeback.id) failed (\(error)); copying the front buffer from now on")
            return nil
        }
    }
}
