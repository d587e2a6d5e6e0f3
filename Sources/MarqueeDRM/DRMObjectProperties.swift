import CDRM

/// Owns a drmModeObjectProperties of one KMS object (connector, CRTC, plane) and maps property
/// names to ids, which atomic commits address by id and which differ between drivers.
final class DRMObjectProperties {
    private let handle: drmModeObjectPropertiesPtr
    let objectID: UInt32
    private(set) var ids: [String: UInt32] = [:]
    private(set) var values: [String: UInt64] = [:]
    /// For enum and bitmask properties (`rotation`, `SCALING_FILTER`, `type`): each value's name and
    /// what to set for it (a bitmask value is a bit index; this holds the bit itself).
    private(set) var enumValues: [String: [(name: String, value: UInt64)]] = [:]

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
            let flags = property.pointee.flags
            let isBitmask = flags & UInt32(DRM_MODE_PROP_BITMASK) != 0
            if isBitmask || flags & UInt32(DRM_MODE_PROP_ENUM) != 0 {
                enumValues[name] = (0..<Int(property.pointee.count_enums)).map { index in
                    let entry = property.pointee.enums[index]
                    let entryName = withUnsafeBytes(of: entry.name) { raw in
                        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                    }
                    return (entryName, isBitmask ? 1 << entry.value : entry.value)
                }
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
