import CDRM
import MarqueeCore

/// For drivers without atomic support: drmModeSetCrtc once, then drmModePageFlip per frame.
final class DRMLegacyScanout: DRMScanout {
    private let device: DRMDevice
    private let connectorID: UInt32
    private let crtcID: UInt32
    private let mode: drmModeModeInfo

    let kind = "legacy"
    /// SetCrtc and PageFlip know no planes: the OSD is blended.
    let overlay: DRMOverlayPlane? = nil

    init(device: DRMDevice, connectorID: UInt32, crtcID: UInt32, mode: drmModeModeInfo) {
        self.device = device
        self.connectorID = connectorID
        self.crtcID = crtcID
        self.mode = mode
    }

    func modeset(_ buffer: DRMDumbBuffer) throws {
        var connector = connectorID
        var mode = mode
        try drmChecked(drmModeSetCrtc(device.fd, crtcID, buffer.framebufferID, 0, 0, &connector, 1, &mode),
                       "drmModeSetCrtc(crtc \(crtcID), fb \(buffer.framebufferID))")
    }

    /// The connector's DPMS property, as legacy userspace has always switched a screen off.
    func setActive(_ active: Bool) throws {
        let connector = try DRMObjectProperties(device: device, objectID: connectorID, type: UInt32(DRM_MODE_OBJECT_CONNECTOR), kind: "connector")
        let value = UInt64(active ? DRM_MODE_DPMS_ON : DRM_MODE_DPMS_OFF)
        try drmChecked(drmModeConnectorSetProperty(device.fd, connectorID, try connector.id("DPMS"), value),
                       "DPMS \(active ? "on" : "off") on connector \(connectorID)")
    }

    func flip(to buffer: DRMDumbBuffer) throws {
        try drmChecked(drmModePageFlip(device.fd, crtcID, buffer.framebufferID, marquee_drm_mode_page_flip_event(), nil),
                       "drmModePageFlip(crtc \(crtcID), fb \(buffer.framebufferID))")
    }
}
