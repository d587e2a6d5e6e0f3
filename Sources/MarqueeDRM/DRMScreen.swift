import CDRM
import Glibc
import MarqueeCore

/// One connector driven in one mode: the CRTC feeding it, four XRGB8888 dumb buffers and the
/// scanout that flips between them. Made again, whole, when the screen comes back after an unplug.
///
/// The buffers are lent out (`pool`): the one on screen, the one it replaced until the flip away
/// from it completed, the next picture prepared, and one the decode thread converts the picture
/// after it into meanwhile. With two, the present thread had to convert every picture itself,
/// between one flip's completion and the next flip.
final class DRMScreen {
    let connectorID: UInt32
    let connectorName: String
    let crtcID: UInt32
    /// The buffers' size: the mode's, or its turned size when the plane rotates.
    let size: PixelSize
    /// The plane turns the picture (`display.rotation`); the player must not turn it again.
    let rotatesInHardware: Bool
    /// "Virtual-1 1280x800@75 on /dev/dri/card0, atomic modesetting (connector: ...; mode: ...)".
    let summary: String
    /// Whether the OSD can go on an overlay plane of this CRTC, and which, or why not.
    let overlayPlane: OverlayPlaneAvailability
    private let scanout: DRMScanout
    let flips: DRMPageFlipWaiter
    private let buffers: [DRMDumbBuffer]
    /// Lends `buffers`: to the decode thread for pictures converted ahead, and to this screen.
    let pool: OutputBufferPool
    /// The buffer on screen, or queued to be (its flip pending: it holds the picture that goes up).
    private var front: OutputBufferLease
    /// The buffer on screen until the pending flip completes; free again then.
    private var replaced: OutputBufferLease?
    /// The picture to show with the next flip, drawn or converted.
    private var prepared: OutputBufferLease?
    static let bufferCount = 4
    private let claims: DRMCrtcClaims

    /// Chooses the connector and mode `options` ask for among `card`'s, and the CRTC to drive it;
    /// nothing is shown until `show(copying:)`.
    init(card: DRMCard, options: DRMOutputOptions) throws {
        let device = card.device
        let connectorChoice: ConnectorChoice
        switch ConnectorChoice.choose(options.connector, from: card.connectors.map(\.candidate)) {
        case .success(let choice): connectorChoice = choice
        case .failure(let failure): throw DRMRefusal(operation: "choosing a connector on \(device.path)", reason: "\(failure)")
        }
        let connector = card.connectors[connectorChoice.index]
        let modeChoice: DisplayModeChoice
        switch DisplayModeChoice.choose(options.mode, from: connector.modes) {
        case .success(let choice): modeChoice = choice
        case .failure(let failure): throw DRMRefusal(operation: "choosing a mode on \(connector.name)", reason: "\(failure)")
        }
        let modeInfo = connector.modeInfos[modeChoice.index]
        let (crtcID, crtcIndex) = try Self.crtc(for: connector, card: card)
        let modeSize = modeChoice.mode.size
        var rotationNote = options.rotation == .none ? "" : ", rotation \(options.rotation.degrees) in software"
        if options.allowsAtomic && device.enableAtomic() {
            let atomic = try DRMAtomicScanout(device: device, connectorID: connector.id, crtcID: crtcID, crtcIndex: crtcIndex, mode: modeInfo)
            if let turned = try Self.planeRotation(options.rotation, scanout: atomic, device: device, modeSize: modeSize) {
                buffers = turned
                rotationNote = ", rotation \(options.rotation.degrees) by the plane"
            } else {
                atomic.rotationBit = nil
                buffers = try Self.makeBuffers(device: device, size: modeSize)
            }
            overlayPlane = Self.chooseOverlay(for: atomic, device: device, crtcID: crtcID, crtcIndex: crtcIndex)
            scanout = atomic
        } else {
            buffers = try Self.makeBuffers(device: device, size: modeSize)
            scanout = DRMLegacyScanout(device: device, connectorID: connector.id, crtcID: crtcID, mode: modeInfo)
            overlayPlane = .unavailable("legacy modesetting has no planes")
        }
        size = buffers[0].size
        pool = OutputBufferPool(buffers)
        front = pool.lendToOutput()!
        rotatesInHardware = scanout is DRMAtomicScanout && (scanout as! DRMAtomicScanout).rotationBit != nil
        connectorID = connector.id
        connectorName = connector.name
        self.crtcID = crtcID
        flips = DRMPageFlipWaiter(device: device, crtcID: crtcID)
        claims = device.crtcClaims
        summary = "\(connector.name) \(modeChoice.mode) on \(device.path), \(scanout.kind) modesetting "
            + "(connector: \(connectorChoice.reason); mode: \(modeChoice.reason)\(rotationNote))"
        claims.claim(crtcID, for: connector.id, by: self)
    }

    /// The OSD's overlay plane, given to `atomic` when there is one. Not with a primary plane that
    /// turns the picture: the player then draws unturned pictures into turned buffers and the
    /// plane turns them, and the OSD would have to be placed and turned to match on the overlay
    /// too (its own rotation, where it has one); the OSD is blended instead, and turned with the
    /// picture, which keeps it exactly where the viewer reads it upright.
    private static func chooseOverlay(for atomic: DRMAtomicScanout, device: DRMDevice, crtcID: UInt32,
                                      crtcIndex: Int) -> OverlayPlaneAvailability {
        guard atomic.rotationBit == nil else {
            return .unavailable("the primary plane turns the picture; the overlay plane is used only without hardware rotation")
        }
        switch DRMOverlayPlaneChoice.choose(from: atomic.planes, crtcID: crtcID, crtcIndex: crtcIndex, primary: atomic.primaryPlane) {
        case .plane(let chosen):
            atomic.overlay = DRMOverlayPlane(device: device, crtcID: crtcID, chosen: chosen)
            return .available(chosen.name)
        case .none(let reason):
            return .unavailable(reason)
        }
    }

    /// Buffers of the turned size when the primary plane offers `rotation` and the driver accepts
    /// the modeset with it (asked with a test-only commit); nil: the player turns pictures itself.
    private static func planeRotation(_ rotation: Rotation, scanout: DRMAtomicScanout, device: DRMDevice,
                                      modeSize: PixelSize) throws -> [DRMDumbBuffer]? {
        let offered = scanout.planeRotations
        guard case .hardware(let name) = PlaneRotationChoice.choose(rotation, supported: offered.map(\.name)),
              let bit = offered.first(where: { $0.name == name })?.value else { return nil }
        let turnedSize = modeSize.rotated(by: rotation)
        let turned = try makeBuffers(device: device, size: turnedSize)
        scanout.rotationBit = bit
        do {
            try scanout.testModeset(turned[0])
        } catch {
            // Some planes offer a quarter turn only for tiled buffers, not for dumb linear ones.
            return nil
        }
        return turned
    }

    private static func makeBuffers(device: DRMDevice, size: PixelSize) throws -> [DRMDumbBuffer] {
        try (0..<bufferCount).map { _ in try DRMDumbBuffer(device: device, size: size) }
    }

    deinit {
        claims.release(by: self)
    }

    private func buffer(_ lease: OutputBufferLease) -> DRMDumbBuffer {
        buffers[lease.slot]
    }

    /// The CRTC already driving the connector (no flicker: the console's), else the first free
    /// one its encoders can use. A CRTC another screen of this process drives is not free.
    private static func crtc(for connector: DRMConnector, card: DRMCard) throws -> (UInt32, Int) {
        let crtcs = card.resources.crtcIDs
        let claims = card.device.crtcClaims
        if connector.currentEncoderID != 0 {
            let encoder = try DRMEncoder(device: card.device, id: connector.currentEncoderID)
            if encoder.crtcID != 0, claims.isAvailable(encoder.crtcID, for: connector.id),
               let index = crtcs.firstIndex(of: encoder.crtcID) { return (encoder.crtcID, index) }
        }
        for encoderID in connector.encoderIDs {
            let encoder = try DRMEncoder(device: card.device, id: encoderID)
            if let index = crtcs.indices.first(where: { encoder.possibleCrtcs & (1 << UInt32($0)) != 0
                                                        && claims.isAvailable(crtcs[$0], for: connector.id) }) {
                return (crtcs[index], index)
            }
        }
        throw DRMRefusal(operation: "choosing a CRTC for \(connector.name)", reason: "none of its encoders can use a CRTC")
    }

    /// The modeset: puts the front buffer on screen, blocking until it is there. The front buffer
    /// shows `previous` (the last picture of the screen this one replaces) when it has the same
    /// size, else the background.
    func show(copying previous: DRMScreen?, background: RGBColor) throws {
        let shown = buffer(front)
        if let previous, previous.size == size {
            previous.frontBuffer.copy(to: shown.pixelBuffer)
        } else {
            shown.pixelBuffer.fill(PixelRect(size: size), with: background)
        }
        // Every buffer goes on screen once, showing the same picture, before any frame is due:
        // drivers with video RAM (bochs-drm, through the GEM VRAM helpers) move a buffer there
        // the first time it is scanned out. Measured under TCG: left to the first flip, that move made an
        // item's first frame 60 ms late and the two after it were dropped.
        let others = buffers.filter { $0 !== shown }
        for other in others {
            shown.pixelBuffer.copy(to: other.pixelBuffer)
            try scanout.modeset(other)
        }
        try scanout.modeset(shown)
        // The move unmapped the other buffers' pages: fault them in again now, not while drawing.
        for other in others { shown.pixelBuffer.copy(to: other.pixelBuffer) }
        for other in others { try warmUpFlip(to: other) }
        try warmUpFlip(to: shown)
    }

    /// A page flip to `buffer`, waited for: every buffer is flipped to once at the modeset, before
    /// any frame is due. Measured in the guest (bochs-drm under TCG, audio-test's sync clip, host
    /// busy): without it the first frame's flip took 2.5-30 ms, once 61 ms, where the flips after
    /// it take 0.5-1 ms, and the first picture went up that much late against its sound (the
    /// sync check failed at 59.9 and 65.5 ms); one flip to the front buffer alone made it worse
    /// (29-87 ms). With a flip to each buffer the first frame's flip took 1.1-6 ms in five runs.
    private func warmUpFlip(to buffer: DRMDumbBuffer) throws {
        flips.flipWillQueue()
        try scanout.flip(to: buffer)
        flips.flipQueued()
        try settleFlip()
    }

    /// Display power; the pending flip completes first, since an inactive CRTC sends no event.
    func setActive(_ active: Bool) throws {
        try settleFlip()
        prepared = nil
        try scanout.setActive(active)
    }

    /// Modesets again with what was last shown: after a VT switch or a lost master.
    func reshow() throws {
        try scanout.modeset(buffer(front))
    }

    private var frontBuffer: PixelBuffer { buffer(front).pixelBuffer }

    /// Waits for the pending flip; the buffer it replaced is free again then.
    private func settleFlip() throws {
        try flips.waitForPendingFlip()
        replaced = nil
    }

    /// A copy of the buffer scanned out (or queued to be, its flip pending: it holds the same
    /// picture), as the viewer sees it: when the plane turns the picture, the copy is turned by
    /// `rotation` too. Reads the mapping across the driver's pitch.
    ///
    /// The OSD on an overlay plane is not in that buffer: it is laid over the copy as the plane
    /// lays it over the picture (premultiplied "over"), so the screenshot shows it too. (Never with
    /// a plane that turns the picture: there is no overlay plane then.)
    func screenshot(rotation: Rotation) -> Canvas {
        let canvas = Canvas(copying: frontBuffer, turnedClockwise: rotatesInHardware ? rotation : .none)
        if let shown = scanout.overlay?.shown?.picture {
            canvas.withPixelBuffer { _ = $0.blend(shown.image, x: shown.frame.x, y: shown.frame.y) }
        }
        return canvas
    }

    /// Writes the OSD picture (nil: hide it) for the overlay plane to show with the next flip;
    /// waits first for the last flip, since until then the plane may scan out the buffer written.
    /// Throws when there is no overlay plane or the driver refuses this one (a test-only commit).
    func stageOverlay(_ picture: OverlayPicture?) throws {
        guard let overlay = scanout.overlay else {
            throw DRMRefusal(operation: "osd", reason: "no overlay plane on this screen")
        }
        try flips.waitForPendingFlip()
        try overlay.stage(picture)
    }

    /// Why the last flip left the OSD's staged change out: the driver refused the commit with it,
    /// and the flip went through without it (the plane hidden). Read once by the output.
    private(set) var overlayRefusal: (any Error)?

    func takeOverlayRefusal() -> (any Error)? {
        defer { overlayRefusal = nil }
        return overlayRefusal
    }

    /// Takes the OSD off the screen at once, before the console is put back on the CRTC.
    func hideOverlay() throws {
        try flips.waitForPendingFlip()
        try (scanout as? DRMAtomicScanout)?.hideOverlay()
    }

    /// Draws into a buffer neither on screen nor queued to be, while the last flip may still be
    /// pending: the buffer that flip replaces stays lent until it completes, so the wait for it is
    /// only the next flip's (`showPrepared`). Waiting here instead held every draw behind the flip
    /// before it: under TCG, with the decode threads busy, the first page flip's event came 55-70 ms
    /// after it was queued, and the frame drawn after it was dropped. Only when the pool has no
    /// buffer free does it wait for the flip, which gives one back.
    func prepare(_ draw: (PixelBuffer) throws -> Void) throws {
        // Drawing again before a flip replaces what was prepared, in the same buffer.
        var target = prepared ?? pool.lendToOutput()
        if target == nil {
            try settleFlip()
            target = pool.lendToOutput()
        }
        guard let target else { throw OutputBufferShortage(output: "display \(connectorName)") }
        prepared = nil
        try draw(buffer(target).pixelBuffer)
        prepared = target
    }

    /// Takes a picture the decode thread converted into one of this screen's buffers as the next
    /// to show; false when the lease is of another screen's pool (one unplugged since).
    func prepare(lease: OutputBufferLease, then draw: ((PixelBuffer) throws -> Void)?) throws -> Bool {
        guard lease.pool === pool else { return false }
        prepared = nil
        if let draw { try draw(buffer(lease).pixelBuffer) }
        prepared = lease
        return true
    }

    /// Flips to what `prepare` drew, once the last flip has completed (a second one queued before
    /// would fail with EBUSY); nothing when nothing is prepared.
    func showPrepared() throws {
        guard let next = prepared else { return }
        try settleFlip()
        prepared = nil
        let target = buffer(next)
        do {
            flips.flipWillQueue()
            try scanout.flip(to: target)
        } catch where !drmLostMaster(error) && scanout.overlay?.hasPendingChange == true {
            // The driver took the plane in a test-only commit but not with this flip: the frame
            // goes up without the OSD's change (the plane hidden), once, and the output stops
            // using the plane rather than fail every frame. A lost master is not the plane's fault.
            overlayRefusal = error
            scanout.overlay?.dropPendingChange()
            do {
                try scanout.flip(to: target)
            } catch where !drmLostMaster(error) && scanout.overlay?.hasPendingChange == true {
                // Not even hiding it: the plane is left as it is, never named in a commit again.
                scanout.overlay?.forgetPendingChange()
                try scanout.flip(to: target)
            }
        }
        flips.flipQueued()
        replaced = front
        front = next
    }
}
