import CDRM
import MarqueeCore

/// Owns a drmModeRes: the card's connector, encoder and CRTC ids, copied out while it lives.
final class DRMResources {
    private let handle: drmModeResPtr
    let connectorIDs: [UInt32]
    let crtcIDs: [UInt32]
    let encoderIDs: [UInt32]

    init(device: DRMDevice) throws(SystemError) {
        // ENOTSUP/EINVAL here means a render-only or non-KMS card.
        handle = try drmNonNull(drmModeGetResources(device.fd), "drmModeGetResources(\(device.path))")
        let res = handle.pointee
        connectorIDs = Array(UnsafeBufferPointer(start: res.connectors, count: Int(res.count_connectors)))
        crtcIDs = Array(UnsafeBufferPointer(start: res.crtcs, count: Int(res.count_crtcs)))
        encoderIDs = Array(UnsafeBufferPointer(start: res.encoders, count: Int(res.count_encoders)))
    }

    deinit {
        drmModeFreeResources(handle)
    }
}
