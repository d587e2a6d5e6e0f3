import CDRM
import MarqueeCore

/// Atomic modesetting: one commit with ALLOW_MODESET sets connector, mode and primary plane; each
/// later frame changes only the plane's FB_ID, non-blocking, with a flip event. The OSD's overlay
/// plane, when there is one, changes in the same commits.
final class DRMAtomicScanout: DRMScanout {
    private let device: DRMDevice
    private let connector: DRMObjectProperties
    private let crtc: DRMObjectProperties
    private let plane: DRMObjectProperties
    private let modeBlob: DRMPropertyBlob
    private let width: UInt64, height: UInt64
    /// The card's planes, read once: the primary plane and the overlay plane are chosen among them.
    let planes: [DRMPlaneFacts]
    /// The primary plane's rotation bit, when the plane turns the picture; nil leaves it alone.
    var rotationBit: UInt64?
    /// The OSD's plane; nil: the OSD is blended into the picture.
    var overlay: DRMOverlayPlane?
    let kind = "atomic"

    /// The rotation values the primary plane offers (`rotate-0`, `rotate-180`, ...); none on many.
    var planeRotations: [(name: String, value: UInt64)] { plane.enumValues["rotation"] ?? [] }

    init(device: DRMDevice, connectorID: UInt32, crtcID: UInt32, crtcIndex: Int, mode: drmModeModeInfo) throws {
        self.device = device
        connector = try DRMObjectProperties(device: device, objectID: connectorID, type: UInt32(DRM_MODE_OBJECT_CONNECTOR), kind: "connector")
        crtc = try DRMObjectProperties(device: device, objectID: crtcID, type: UInt32(DRM_MODE_OBJECT_CRTC), kind: "CRTC")
        planes = try DRMPlaneResources(device: device).planes(device: device)
        plane = try DRMPlaneResources.primaryPlane(among: planes, crtcIndex: crtcIndex)
        modeBlob = try DRMPropertyBlob(device: device, mode: mode)
        width = UInt64(mode.hdisplay)
        height = UInt64(mode.vdisplay)
    }

    /// The primary plane's properties, which the overlay plane's zpos is set against.
    var primaryPlane: DRMObjectProperties { plane }

    func modeset(_ buffer: DRMDumbBuffer) throws {
        try modesetRequest(buffer).commit(on: device, flags: marquee_drm_mode_atomic_allow_modeset(), what: "modeset")
    }

    /// Asks the driver whether it would take this modeset (a turned plane, say) without doing it.
    func testModeset(_ buffer: DRMDumbBuffer) throws {
        try modesetRequest(buffer).commit(on: device, flags: marquee_drm_mode_atomic_allow_modeset() | marquee_drm_mode_atomic_test_only(),
                                          what: "test modeset")
    }

    private func modesetRequest(_ buffer: DRMDumbBuffer) throws -> DRMAtomicRequest {
        let request = try DRMAtomicRequest()
        try request.add(connector, "CRTC_ID", UInt64(crtc.objectID))
        try request.add(crtc, "MODE_ID", UInt64(modeBlob.id))
        try request.add(crtc, "ACTIVE", 1)
        try addPlane(to: request, buffer)
        if let rotationBit { try request.add(plane, "rotation", rotationBit) }
        try overlay?.addShownState(to: request)
        return request
    }

    /// Flips the primary plane to `buffer`, with the overlay plane's staged change in the same commit.
    func flip(to buffer: DRMDumbBuffer) throws {
        let request = try flipRequest(to: buffer)
        try request.commit(on: device, flags: marquee_drm_mode_page_flip_event() | marquee_drm_mode_atomic_nonblock(),
                           what: "flip to fb \(buffer.framebufferID)")
        overlay?.pendingChangeCommitted()
    }

    func flipRequest(to buffer: DRMDumbBuffer) throws -> DRMAtomicRequest {
        let request = try DRMAtomicRequest()
        try request.add(plane, "FB_ID", UInt64(buffer.framebufferID))
        try overlay?.addPendingChange(to: request)
        return request
    }

    /// Takes the overlay plane off the screen at once (blocking), before the console comes back.
    func hideOverlay() throws {
        guard let overlay, overlay.shown != nil else { return }
        try overlay.stage(nil)
        let request = try DRMAtomicRequest()
        try overlay.addPendingChange(to: request)
        try request.commit(on: device, flags: 0, what: "hide \(overlay.chosen.name)")
        overlay.pendingChangeCommitted()
    }

    /// ACTIVE alone: the mode blob, the connector's routing and the plane's buffer stay in the
    /// state, so turning it on again shows the last picture with no new modeset of our own.
    func setActive(_ active: Bool) throws {
        let request = try DRMAtomicRequest()
        try request.add(crtc, "ACTIVE", active ? 1 : 0)
        try request.commit(on: device, flags: marquee_drm_mode_atomic_allow_modeset(), what: active ? "display on" : "display off")
    }

    private func addPlane(to request: DRMAtomicRequest, _ buffer: DRMDumbBuffer) throws {
        try request.add(plane, "FB_ID", UInt64(buffer.framebufferID))
        try request.add(plane, "CRTC_ID", UInt64(crtc.objectID))
        // Source coordinates are 16.16 fixed point: the whole buffer, which has the CRTC's size, or
        // its turned size when the plane rotates; no plane scaling.
        try request.add(plane, "SRC_X", 0)
        try request.add(plane, "SRC_Y", 0)
        try request.add(plane, "SRC_W", UInt64(buffer.size.width) << 16)
        try request.add(plane, "SRC_H", UInt64(buffer.size.height) << 16)
        try request.add(plane, "CRTC_X", 0)
        try request.add(plane, "CRTC_Y", 0)
        try request.add(plane, "CRTC_W", width)
        try request.add(plane, "CRTC_H", height)
    }
}
