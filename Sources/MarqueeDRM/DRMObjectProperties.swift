import CDRM

/// Owns a drmModeObjectProperties of one KMS object (connector, CRTC, plane) and maps property
/// names to ids, which atomic commits address by id and which differ between drivers.
final class DRMObjectProperties {
    private let handle: drmModeObjectPropertiesPtr
    let objectID: UInt32
    private(set) var ids: [String: UInt32] = [:]
    private(set) var values: [String: UInt64] = [:]

    init(device: DRMDevice, objectID: UInt32, type: UInt32, kind: String) throws(DRMError) {
        self.objectID = objectID
        handle = try drmNonNull(drmModeObjectGetProperties(device.fd, objectID, type),
                                "drmModeObjectGetProperties(\(kind) \(objectID))")
        let props = handle.pointee
        for i in 0..<Int(props.count_props) {
            let id = props.props[i]
            // Each property's metadata is its own allocation, only needed for the name.
            let property = try drmNonNull(drmModeGetProperty(device.fd, id), "drmModeGetProperty(\(id))")
            let name = withUnsafeBytes(of: property.pointee.name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            drmModeFreeProperty(property)
            ids[name] = id
            values[name] = props.prop_values[i]
        }
    }

    deinit {
        drmModeFreeObjectProperties(handle)
    }

    func id(_ name: String) throws(DRMError) -> UInt32 {
        guard let id = ids[name] else {
            throw DRMError(operation: "property \(name) of object \(objectID)", message: "the driver does not offer it")
        }
        return id
    }
}
