import CDRM

/// What choosing a writeback connector needs to know of one: its type, properties, which CRTCs its
/// encoder can take the picture from and which formats it writes. A value, so the choice is tested
/// with made-up connectors.
struct DRMWritebackConnectorFacts {
    var properties: DRMObjectProperties
    /// DRM_MODE_CONNECTOR_WRITEBACK for a writeback connector.
    var type: UInt32
    /// Bit i: the connector can capture the card's i-th CRTC (its encoders' possible CRTCs).
    var possibleCrtcs: UInt32
    /// WRITEBACK_PIXEL_FORMATS: the fourccs it can write.
    var formats: [UInt32]

    var id: UInt32 { properties.objectID }

    func canCapture(crtcIndex: Int) -> Bool {
        possibleCrtcs & (1 << UInt32(crtcIndex)) != 0
    }
}
