import CDRM
import MarqueeCore

/// One KMS object's properties (connector, CRTC, plane), read once: names mapped to ids, which
/// atomic commits address by id and which differ between drivers, with their values and limits.
/// A plain value: the libdrm allocations it is read from are freed before the initialiser returns,
/// and tests make tables of their own without a device.
struct DRMObjectProperties {
    let objectID: UInt32
    private(set) var ids: [String: UInt32] = [:]
    private(set) var values: [String: UInt64] = [:]
    /// For enum and bitmask properties (`rotation`, `SCALING_FILTER`, `type`): each value's name and
    /// what to set for it (a bitmask value is a bit index; this holds the bit itself).
    private(set) var enumValues: [String: [(name: String, value: UInt64)]] = [:]
    /// The lowest and highest value of unsigned range properties (`zpos`, `alpha`).
    private(set) var ranges: [String: ClosedRange<UInt64>] = [:]
    /// Properties the driver shows but does not let anyone set (a fixed `zpos`).
    private(set) var immutable: Set<String> = []

    /// A table from given facts, for tests and for choices made without a device.
    init(objectID: UInt32, ids: [String: UInt32], values: [String: UInt64] = [:],
         enumValues: [String: [(name: String, value: UInt64)]] = [:],
         ranges: [String: ClosedRange<UInt64>] = [:], immutable: Set<String> = []) {
        self.objectID = objectID
        self.ids = ids
        self.values = values
        self.enumValues = enumValues
        self.ranges = ranges
        self.immutable = immutable
    }

    init(device: DRMDevice, objectID: UInt32, type: UInt32, kind: String) throws(SystemError) {
        self.objectID = objectID
        let handle = try drmNonNull(drmModeObjectGetProperties(device.fd, objectID, type),
                                    "drmModeObjectGetProperties(\(kind) \(objectID))")
        defer { drmModeFreeObjectProperties(handle) }
        let props = handle.pointee
        for i in 0..<Int(props.count_props) {
            let id = props.props[i]
            // Each property's metadata is its own allocation, only needed for the name and limits.
            let property = try drmNonNull(drmModeGetProperty(device.fd, id), "drmModeGetProperty(\(id))")
            defer { drmModeFreeProperty(property) }
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
            if flags & UInt32(DRM_MODE_PROP_RANGE) != 0, property.pointee.count_values == 2 {
                let low = property.pointee.values[0], high = property.pointee.values[1]
                if low <= high { ranges[name] = low...high }
            }
            if flags & UInt32(DRM_MODE_PROP_IMMUTABLE) != 0 { immutable.insert(name) }
            ids[name] = id
            values[name] = props.prop_values[i]
        }
    }

    func id(_ name: String) throws(DRMRefusal) -> UInt32 {
        guard let id = ids[name] else {
            throw DRMRefusal(operation: "property \(name) of object \(objectID)", reason: "the driver does not offer it")
        }
        return id
    }

    /// The value to set enum property `name` to for its entry `entry`; nil when either is missing.
    func enumValue(_ name: String, _ entry: String) -> UInt64? {
        enumValues[name]?.first { $0.name == entry }?.value
    }
}
