import CDRM
import MarqueeCore

/// Owns a drmModePlane: which CRTCs it can feed (a bitmask over the card's CRTC list).
final class DRMPlane {
    private let handle: drmModePlanePtr
    let id: UInt32
    let possibleCrtcs: UInt32
    let formats: [UInt32]

    init(device: DRMDevice, id: UInt32) throws(SystemError) {
        handle = try drmNonNull(drmModeGetPlane(device.fd, id), "drmModeGetPlane(\(id))")
        self.id = id
        possibleCrtcs = handle.pointee.possible_crtcs
        formats = Array(UnsafeBufferPointer(start: handle.pointee.formats, count: Int(handle.pointee.count_formats)))
    }

    deinit {
        drmModeFreePlane(handle)
    }
}
