import CDRM
import MarqueeCore

/// Owns one drmModeAtomicReq: a set of property changes committed all at once. Building one needs
/// no device (libdrm only collects the changes), so tests build the requests the output would
/// commit and read back what is in them.
final class DRMAtomicRequest {
    /// One property change as added: the object, the property's name and the value.
    struct Change: Equatable, CustomStringConvertible {
        let objectID: UInt32
        let name: String
        let value: UInt64

        var description: String { "\(objectID).\(name)=\(value)" }
    }

    private let handle: drmModeAtomicReqPtr
    /// What was added, in order: what the commit asks of the driver.
    private(set) var changes: [Change] = []

    init() throws(SystemError) {
        handle = try drmNonNull(drmModeAtomicAlloc(), "drmModeAtomicAlloc")
    }

    deinit {
        drmModeAtomicFree(handle)
    }

    func add(_ object: DRMObjectProperties, _ name: String, _ value: UInt64) throws {
        let property = try object.id(name)
        try drmChecked(drmModeAtomicAddProperty(handle, object.objectID, property, value),
                       "drmModeAtomicAddProperty(\(object.objectID).\(name))")
        changes.append(Change(objectID: object.objectID, name: name, value: value))
    }

    /// The value this request sets `name` of `objectID` to; nil when it does not set it.
    func value(of objectID: UInt32, _ name: String) -> UInt64? {
        changes.last { $0.objectID == objectID && $0.name == name }?.value
    }

    func commit(on device: DRMDevice, flags: UInt32, what: String) throws(SystemError) {
        try drmChecked(drmModeAtomicCommit(device.fd, handle, flags, nil), "drmModeAtomicCommit(\(what))")
    }
}
