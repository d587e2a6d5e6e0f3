import CDRM
import MarqueeCore

/// Owns a property blob (the mode for an atomic MODE_ID); destroyed when the output closes, after
/// the CRTC no longer uses it.
final class DRMPropertyBlob {
    private let device: DRMDevice
    let id: UInt32

    init(device: DRMDevice, mode: drmModeModeInfo) throws(SystemError) {
        self.device = device
        var mode = mode
        var id: UInt32 = 0
        try drmChecked(drmModeCreatePropertyBlob(device.fd, &mode, MemoryLayout<drmModeModeInfo>.size, &id),
                       "drmModeCreatePropertyBlob(mode)")
        self.id = id
    }

    deinit {
        drmModeDestroyPropertyBlob(device.fd, id)
    }
}
