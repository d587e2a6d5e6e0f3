import CDRM
import Testing
@testable import MarqueeDRM

/// Which writeback connector a screenshot goes through: one of type WRITEBACK that can capture our
/// CRTC, has the capture's properties, writes XRGB8888 and is not on another CRTC; anything else
/// leaves screenshots to the software copy, with the reason the log says. And what the capture's
/// two commits ask of it.
@Suite struct WritebackConnectorChoiceTests {
    static let writebackType = UInt32(DRM_MODE_CONNECTOR_WRITEBACK)
    static let virtualType = UInt32(DRM_MODE_CONNECTOR_VIRTUAL)
    static let allProperties = ["CRTC_ID", "WRITEBACK_FB_ID", "WRITEBACK_OUT_FENCE_PTR", "WRITEBACK_PIXEL_FORMATS"]

    /// Property ids are the connector id times 100 plus a property number, so a request's ids say whose they are.
    static func connector(_ id: UInt32, type: UInt32 = writebackType, crtcs: UInt32 = 0b1,
                          formats: [UInt32] = [PlaneTable.xrgb], properties: [String] = allProperties,
                          crtcNow: UInt64 = 0) -> DRMWritebackConnectorFacts {
        let ids = Dictionary(uniqueKeysWithValues: properties.enumerated().map { ($0.element, id * 100 + UInt32($0.offset)) })
        let table = DRMObjectProperties(objectID: id, ids: ids, values: ["CRTC_ID": crtcNow])
        return DRMWritebackConnectorFacts(properties: table, type: type, possibleCrtcs: crtcs, formats: formats)
    }

    static func choose(_ connectors: [DRMWritebackConnectorFacts], crtcIndex: Int = 0) -> DRMWritebackConnectorChoice.Outcome {
        DRMWritebackConnectorChoice.choose(from: connectors, crtcID: 38 + UInt32(crtcIndex), crtcIndex: crtcIndex)
    }

    static func chosenID(_ outcome: DRMWritebackConnectorChoice.Outcome) -> UInt32? {
        if case .connector(let chosen) = outcome { chosen.id } else { nil }
    }

    static func reason(_ outcome: DRMWritebackConnectorChoice.Outcome) -> String? {
        if case .none(let reason) = outcome { reason } else { nil }
    }

    /// vkms with enable_writeback=1: Virtual-1 and a writeback connector writing XR24, XR48, AR48, RG16.
    @Test func vkmsWritebackConnectorIsChosen() {
        let vkms = [Self.connector(35, type: Self.virtualType),
                    Self.connector(45, formats: [PlaneTable.xrgb, PlaneTable.fourcc("XR48"), PlaneTable.fourcc("AR48"), PlaneTable.fourcc("RG16")])]
        #expect(Self.chosenID(Self.choose(vkms)) == 45)
    }

    /// bochs-drm and virtio-gpu list their Virtual connectors only, even with the client cap.
    @Test func aCardWithoutWritebackConnectorsKeepsTheSoftwareCopy() {
        #expect(Self.reason(Self.choose([])) == "the card has no writeback connector")
        #expect(Self.reason(Self.choose([Self.connector(35, type: Self.virtualType)])) == "the card has no writeback connector")
    }

    @Test func aConnectorForAnotherCRTCIsNotChosen() {
        let connectors = [Self.connector(45, crtcs: 0b10)]
        #expect(Self.reason(Self.choose(connectors, crtcIndex: 0)) == "no writeback connector can capture CRTC 38")
        #expect(Self.chosenID(Self.choose(connectors, crtcIndex: 1)) == 45)
    }

    @Test func aConnectorWithoutAnOutFenceIsNotChosen() {
        let connectors = [Self.connector(45, properties: ["CRTC_ID", "WRITEBACK_FB_ID", "WRITEBACK_PIXEL_FORMATS"])]
        #expect(Self.reason(Self.choose(connectors))
                == "the writeback connectors for CRTC 38 lack CRTC_ID, WRITEBACK_FB_ID, WRITEBACK_OUT_FENCE_PTR properties")
    }

    @Test func aConnectorNotWritingXRGB8888IsNotChosen() {
        let connectors = [Self.connector(45, formats: [PlaneTable.fourcc("RG16")])]
        #expect(Self.reason(Self.choose(connectors)) == "the writeback connectors for CRTC 38 do not write XRGB8888")
        // The first in the card's order that fits wins.
        #expect(Self.chosenID(Self.choose(connectors + [Self.connector(46), Self.connector(47)])) == 46)
    }

    @Test func aConnectorAttachedToAnotherCRTCIsNotTakenButOneOnOursIs() {
        #expect(Self.reason(Self.choose([Self.connector(45, crtcs: 0b11, crtcNow: 39)]))
                == "the writeback connectors for CRTC 38 are attached to other CRTCs")
        #expect(Self.chosenID(Self.choose([Self.connector(45, crtcNow: 38)])) == 45)
        #expect(Self.chosenID(Self.choose([Self.connector(45, crtcs: 0b11, crtcNow: 39), Self.connector(46)])) == 46)
    }

    /// The attach commit names the CRTC, the buffer and where the fence fd goes; the detach commit
    /// only takes the connector off the CRTC (a buffer without a CRTC is refused by the kernel).
    @Test func attachCarriesBufferAndFenceAndDetachOnlyClearsTheCRTC() throws {
        let wb = Self.connector(45).properties
        let slot = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        defer { slot.deallocate() }
        let attach = try DRMWritebackCapture.attachRequest(wb, crtcID: 38, framebufferID: 77, fenceSlot: slot)
        #expect(attach.value(of: 45, "CRTC_ID") == 38)
        #expect(attach.value(of: 45, "WRITEBACK_FB_ID") == 77)
        #expect(attach.value(of: 45, "WRITEBACK_OUT_FENCE_PTR") == UInt64(UInt(bitPattern: slot)))
        let detach = try DRMWritebackCapture.detachRequest(wb)
        #expect(detach.changes == [DRMAtomicRequest.Change(objectID: 45, name: "CRTC_ID", value: 0)])
    }
}
