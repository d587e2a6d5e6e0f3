@testable import MarqueeDRM

/// Made-up planes, as a driver would list them: properties with ids, a type, formats and CRTCs.
enum PlaneTable {
    /// DRM_PLANE_TYPE_* values.
    static let overlay: UInt64 = 0, primary: UInt64 = 1, cursor: UInt64 = 2

    /// A format's fourcc code from its four letters ("AR24" is ARGB8888, "XR24" XRGB8888).
    static func fourcc(_ code: String) -> UInt32 {
        code.utf8.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    static let argb = fourcc("AR24"), xrgb = fourcc("XR24"), nv12 = fourcc("NV12")

    /// Every plane has the properties atomic commits set; ids are the plane id times 100 plus a
    /// property number, so a request's ids say whose they are.
    static let commonProperties = ["type", "FB_ID", "CRTC_ID", "SRC_X", "SRC_Y", "SRC_W", "SRC_H",
                                   "CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H"]

    static func plane(_ id: UInt32, _ type: UInt64, formats: [UInt32] = [fourcc("XR24"), fourcc("AR24")], crtcs: UInt32 = 0b1,
                      zpos: (value: UInt64, range: ClosedRange<UInt64>, mutable: Bool)? = nil,
                      blendModes: [String]? = nil, crtcNow: UInt64 = 0) -> DRMPlaneFacts {
        var names = commonProperties
        // CRTC_ID: the CRTC the plane shows on now (0: none).
        var values: [String: UInt64] = ["type": type, "CRTC_ID": crtcNow]
        var ranges: [String: ClosedRange<UInt64>] = [:]
        var immutable: Set<String> = []
        var enums: [String: [(name: String, value: UInt64)]] = [:]
        if let zpos {
            names.append("zpos")
            values["zpos"] = zpos.value
            ranges["zpos"] = zpos.range
            if !zpos.mutable { immutable.insert("zpos") }
        }
        if let blendModes {
            names.append("pixel blend mode")
            enums["pixel blend mode"] = blendModes.enumerated().map { ($0.element, UInt64($0.offset)) }
            values["pixel blend mode"] = 1
        }
        let ids = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($0.element, id * 100 + UInt32($0.offset)) })
        let properties = DRMObjectProperties(objectID: id, ids: ids, values: values, enumValues: enums, ranges: ranges, immutable: immutable)
        return DRMPlaneFacts(properties: properties, possibleCrtcs: crtcs, formats: formats)
    }

    /// What bochs-drm lists: one primary plane.
    static let bochs = [plane(31, primary, formats: [xrgb, fourcc("BX24")])]
    /// What virtio-gpu lists: a primary plane and a 64x64 cursor.
    static let virtio = [plane(31, primary, formats: [xrgb]), plane(32, cursor, formats: [argb])]
}
