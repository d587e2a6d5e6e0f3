import CDRM

/// Owns one drmModeAtomicReq: a set of property changes committed all at once.
final class DRMAtomicRequest {
    private let device: DRMDevice
    private let handle: drmModeAtomicReqPtr

    init(device: DRMDevice) throws(DRMError) {
        self.device = device
        handle = try drmNonNull(drmModeAtomicAlloc(), "drmModeAtomicAlloc")
    }

    deinit {
        drmModeAtomicFree(handle)
    }

    func add(_ object: DRMObjectProperties, _ name: String, _ value: UInt64) throws(DRMError) {
        let property = try object.id(name)
        try drmChecked(drmModeAtomicAddProperty(handle, object.objectID, property, value),
                       "drmModeAtomicAddProperty(\(object.objectID).\(name))")
    }

    func commit(flags: UInt32, what: String) throws(DRMError) {
        try drmChecked(drmModeAtomicCommit(device.fd, handle, flags, nil), "drmModeAtomicCommit(\(what))")
    }
}
