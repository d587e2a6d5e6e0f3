import CDRM

/// What choosing a plane needs to know of one: its properties (its type among them), which CRTCs
/// it can feed and which formats it takes. A value, so choices are tested with made-up planes.
struct DRMPlaneFacts {
    var properties: DRMObjectProperties
    /// Bit i: the plane can feed the card's i-th CRTC.
    var possibleCrtcs: UInt32
    var formats: [UInt32]

    var id: UInt32 { properties.objectID }
    /// DRM_PLANE_TYPE_OVERLAY, _PRIMARY or _CURSOR.
    var type: UInt64? { properties.values["type"] }

    func canFeed(crtcIndex: Int) -> Bool {
        possibleCrtcs & (1 << UInt32(crtcIndex)) != 0
    }
}
