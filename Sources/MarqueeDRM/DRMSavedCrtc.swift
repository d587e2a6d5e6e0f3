import CDRM
import MarqueeCore

/// Owns the drmModeCrtc read at open: what the CRTC showed before us (usually the text console's
/// framebuffer), so that closing puts it back instead of leaving a dead or frozen screen.
final class DRMSavedCrtc {
    private let device: DRMDevice
    private let handle: drmModeCrtcPtr
    let id: UInt32

    init(device: DRMDevice, id: UInt32) throws(SystemError) {
        self.device = device
        self.id = id
        handle = try drmNonNull(drmModeGetCrtc(device.fd, id), "drmModeGetCrtc(\(id))")
    }

    deinit {
        drmModeFreeCrtc(handle)
    }

    /// Sets the saved framebuffer and mode back on `connectorID`, or switches the CRTC off if it
    /// was off. Legacy SetCrtc works after atomic commits too, and takes the console's fb id.
    func restore(connectorID: UInt32) throws(SystemError) {
        var saved = handle.pointee
        var connector = connectorID
        if saved.buffer_id == 0 || saved.mode_valid == 0 {
            try drmChecked(drmModeSetCrtc(device.fd, id, 0, 0, 0, nil, 0, nil), "drmModeSetCrtc(crtc \(id), off)")
            return
        }
        try drmChecked(drmModeSetCrtc(device.fd, id, saved.buffer_id, saved.x, saved.y, &connector, 1, &saved.mode),
                       "drmModeSetCrtc(crtc \(id), fb \(saved.buffer_id))")
    }
}
