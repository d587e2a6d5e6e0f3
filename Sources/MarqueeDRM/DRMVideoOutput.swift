import CDRM
import MarqueeCore

/// `--output drm[:PATH]`: shows pictures on a KMS/DRM screen through two XRGB8888 dumb buffers,
/// drawing into the one not on screen and flipping to it.
///
/// Pacing stays with the player's clock: `present` is called when a frame is due, and flip events
/// mean only "that buffer is free again" (VM drivers send them at once, with no vblank).
public final class DRMVideoOutput: VideoOutput, @unchecked Sendable {
    public let screenSize: PixelSize
    /// "Virtual-1 1280x800@75 (auto: the first connected connector; the connector's preferred
    /// mode) on /dev/dri/card0, atomic": what an installer needs to know, in one line.
    public let summary: String

    private var card: DRMCard?
    private var savedCrtc: DRMSavedCrtc?
    private let connectorID: UInt32
    private let scanout: DRMScanout
    private let flips: DRMPageFlipWaiter
    private var buffers: [DRMDumbBuffer]
    private var back = 1

    /// True when some card has a connected screen: what `--output auto` asks.
    public static func hasConnectedScreen() -> Bool {
        if case .success = DRMCard.firstConnected() { return true }
        return false
    }

    public init(options: DRMOutputOptions) throws(DRMError) {
        let card: DRMCard
        if let path = options.devicePath {
            card = try DRMCard(path: path)
        } else {
            card = try DRMCard.firstConnected().get()
        }
        let device = card.device
        try device.becomeMaster()

        let connectorChoice: ConnectorChoice
        switch ConnectorChoice.choose(options.connector, from: card.connectors.map(\.candidate)) {
        case .success(let choice): connectorChoice = choice
        case .failure(let failure): throw DRMError(operation: "choosing a connector on \(device.path)", message: "\(failure)")
        }
        let connector = card.connectors[connectorChoice.index]
        let modeChoice: DisplayModeChoice
        switch DisplayModeChoice.choose(options.mode, from: connector.modes) {
        case .success(let choice): modeChoice = choice
        case .failure(let failure): throw DRMError(operation: "choosing a mode on \(connector.name)", message: "\(failure)")
        }
        let modeInfo = connector.modeInfos[modeChoice.index]
        let (crtcID, crtcIndex) = try Self.crtc(for: connector, card: card)
        let savedCrtc = try DRMSavedCrtc(device: device, id: crtcID)

        let size = modeChoice.mode.size
        let buffers = [try DRMDumbBuffer(device: device, size: size), try DRMDumbBuffer(device: device, size: size)]
        for buffer in buffers {
            buffer.pixelBuffer.fill(PixelRect(size: size), with: .black)
        }
        let scanout: DRMScanout
        if device.enableAtomic() {
            scanout = try DRMAtomicScanout(device: device, connectorID: connector.id, crtcID: crtcID, crtcIndex: crtcIndex, mode: modeInfo)
        } else {
            scanout = DRMLegacyScanout(device: device, connectorID: connector.id, crtcID: crtcID, mode: modeInfo)
        }
        try scanout.modeset(buffers[0])

        self.card = card
        self.savedCrtc = savedCrtc
        self.connectorID = connector.id
        self.scanout = scanout
        self.flips = DRMPageFlipWaiter(device: device)
        self.buffers = buffers
        screenSize = size
        summary = "\(connector.name) \(modeChoice.mode) on \(device.path), \(scanout.kind) modesetting "
            + "(connector: \(connectorChoice.reason); mode: \(modeChoice.reason))"
    }

    deinit {
        close()
    }

    /// The CRTC already driving the connector (no flicker: the console's), else the first free
    /// one its encoders can use.
    private static func crtc(for connector: DRMConnector, card: DRMCard) throws(DRMError) -> (UInt32, Int) {
        let crtcs = card.resources.crtcIDs
        if connector.currentEncoderID != 0 {
            let encoder = try DRMEncoder(device: card.device, id: connector.currentEncoderID)
            if encoder.crtcID != 0, let index = crtcs.firstIndex(of: encoder.crtcID) { return (encoder.crtcID, index) }
        }
        for encoderID in connector.encoderIDs {
            let encoder = try DRMEncoder(device: card.device, id: encoderID)
            if let index = crtcs.indices.first(where: { encoder.possibleCrtcs & (1 << UInt32($0)) != 0 }) {
                return (crtcs[index], index)
            }
        }
        throw DRMError(operation: "choosing a CRTC for \(connector.name)", message: "none of its encoders can use a CRTC")
    }

    public func present(_ draw: (PixelBuffer) throws -> Void) throws {
        guard card != nil else { throw DRMError(operation: "present", message: "the DRM output is closed") }
        // The back buffer was on screen until the last flip completed: wait for it before drawing
        // over it. Waiting here rather than after the flip lets the vblank pass while the player
        // sleeps until the next frame is due.
        try flips.waitForPendingFlip()
        let buffer = buffers[back]
        try draw(buffer.pixelBuffer)
        try scanout.flip(to: buffer)
        flips.flipQueued()
        back = 1 - back
    }

    /// Puts back what the screen showed before (the console), frees the buffers and drops master.
    /// Idempotent; the deinit calls it too. Errors are returned, not thrown: closing goes on.
    @discardableResult
    public func close() -> [DRMError] {
        guard let card else { return [] }
        var problems: [DRMError] = []
        do { try flips.waitForPendingFlip() } catch { problems.append(error) }
        // Restore before freeing the buffers: removing the framebuffer on screen would switch the
        // CRTC off instead.
        do { try savedCrtc?.restore(connectorID: connectorID) } catch { problems.append(error) }
        savedCrtc = nil
        buffers.removeAll()
        do { try card.device.dropMaster() } catch { problems.append(error) }
        self.card = nil
        return problems
    }
}
