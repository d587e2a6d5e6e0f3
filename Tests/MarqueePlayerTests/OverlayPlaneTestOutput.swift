import Foundation
import MarqueeCore
@testable import MarqueePlayer

/// A headless output with an overlay plane, as a DRM screen with an ARGB overlay plane has one:
/// it records every picture staged for the plane and what the plane showed after each flip, and
/// can refuse the plane as a driver might.
final class OverlayPlaneTestOutput: OverlayPlaneOutput, @unchecked Sendable {
    let frames: HeadlessVideoOutput
    let overlayPlane: OverlayPlaneAvailability
    private let accepts: Bool
    private let lock = NSLock()
    private var stagedPictures: [OverlayPicture?] = []
    private var pending: OverlayPicture??
    private var shownPicture: OverlayPicture?
    private var shownChanges: [OverlayPicture?] = []

    init(size: PixelSize, availability: OverlayPlaneAvailability = .available("overlay plane 42 (ARGB8888)"), accepts: Bool = true) {
        frames = HeadlessVideoOutput(size: size)
        overlayPlane = availability
        self.accepts = accepts
    }

    var screenSize: PixelSize { frames.screenSize }

    func prepare(_ draw: (PixelBuffer) throws -> Void) throws {
        try frames.prepare(draw)
    }

    /// A staged change goes up with the flip, as it does in one atomic commit.
    func showPrepared() throws {
        try frames.showPrepared()
        lock.withLock {
            if let pending {
                shownPicture = pending
                shownChanges.append(pending)
            }
            pending = nil
        }
    }

    func stageOverlay(_ picture: OverlayPicture?) -> Bool {
        lock.withLock {
            stagedPictures.append(picture)
            guard accepts else { return false }
            pending = .some(picture)
            return true
        }
    }

    /// Every call to `stageOverlay`, in order.
    var staged: [OverlayPicture?] { lock.withLock { stagedPictures } }
    /// What the plane shows now.
    var shown: OverlayPicture? { lock.withLock { shownPicture } }
    /// What each flip that changed the plane made it show.
    var changes: [OverlayPicture?] { lock.withLock { shownChanges } }
    /// The video's own pixels on screen, without the plane.
    var framePixels: [UInt32] { frames.canvas.pixels }
}
