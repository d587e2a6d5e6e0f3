import CDRM
import MarqueeCore

/// Owns a drmModeEncoder: which CRTC drives it now and which CRTCs could.
final class DRMEncoder {
    private let handle: drmModeEncoderPtr
    let crtcID: UInt32
    let possibleCrtcs: UInt32

    init(device: DRMDevice, id: UInt32) throws(SystemError) {
        handle = try drmNonNull(drmModeGetEncoder(device.fd, id), "drmModeGetEncoder(\(id))")
        crtcID = handle.pointee.crtc_id
        possibleCrtcs = handle.pointee.possible_crtcs
    }

    deinit {
        drmModeFreeEncoder(handle)
    }
}
