import CDRM

/// Which writeback connector a screenshot of a CRTC goes through, if any: one that can capture
/// that CRTC, has the properties a capture sets, writes XRGB8888 (what the screenshot reads) and is
/// not attached to another CRTC. Pure: it reads facts about connectors, so it is tested with
/// made-up lists.
enum DRMWritebackConnectorChoice {
    enum Outcome {
        case connector(DRMWritebackConnectorFacts)
        /// Why screenshots copy the front buffer instead, for the log line.
        case none(reason: String)
    }

    /// What one capture's commits set on the connector.
    static let capturePropertyNames = ["CRTC_ID", "WRITEBACK_FB_ID", "WRITEBACK_OUT_FENCE_PTR"]

    /// The first fitting connector, in the card's order, for the CRTC `crtcID` (the card's
    /// `crtcIndex`-th). One attached to another CRTC now is another screen's capture in flight.
    static func choose(from connectors: [DRMWritebackConnectorFacts], crtcID: UInt32, crtcIndex: Int) -> Outcome {
        let writeback = connectors.filter { $0.type == UInt32(DRM_MODE_CONNECTOR_WRITEBACK) }
        guard !writeback.isEmpty else { return .none(reason: "the card has no writeback connector") }
        let ours = writeback.filter { $0.canCapture(crtcIndex: crtcIndex) }
        guard !ours.isEmpty else { return .none(reason: "no writeback connector can capture CRTC \(crtcID)") }
        let complete = ours.filter { connector in capturePropertyNames.allSatisfy { connector.properties.ids[$0] != nil } }
        guard !complete.isEmpty else {
            return .none(reason: "the writeback connectors for CRTC \(crtcID) lack \(capturePropertyNames.joined(separator: ", ")) properties")
        }
        let xrgb = complete.filter { $0.formats.contains(marquee_drm_format_xrgb8888()) }
        guard !xrgb.isEmpty else { return .none(reason: "the writeback connectors for CRTC \(crtcID) do not write XRGB8888") }
        let free = xrgb.filter { [0, UInt64(crtcID)].contains($0.properties.values["CRTC_ID"] ?? 0) }
        guard let chosen = free.first else {
            return .none(reason: "the writeback connectors for CRTC \(crtcID) are attached to other CRTCs")
        }
        return .connector(chosen)
    }
}
