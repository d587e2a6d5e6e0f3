import MarqueeCore
import Testing
@testable import MarqueeDRM

/// What the overlay plane adds to an atomic request (built without a device: libdrm only collects
/// the changes until the commit): showing sets the buffer, our CRTC and both rectangles, the
/// source one in 16.16 fixed point; hiding clears the buffer and the CRTC together.
@Suite struct OverlayPlaneRequestTests {
    typealias T = PlaneTable
    typealias Change = DRMAtomicRequest.Change

    static func chosen(_ plane: DRMPlaneFacts, primary: DRMPlaneFacts = T.plane(31, T.primary)) throws -> DRMOverlayPlaneChoice.Chosen {
        guard case .plane(let chosen) = DRMOverlayPlaneChoice.choose(from: [primary, plane], crtcID: 38, crtcIndex: 0, primary: primary.properties) else {
            throw ChoiceFailed()
        }
        return chosen
    }

    struct ChoiceFailed: Error {}

    @Test func showingSetsTheBufferTheCRTCAndBothRectangles() throws {
        let chosen = try Self.chosen(T.plane(42, T.overlay))
        let request = try DRMAtomicRequest()
        try DRMOverlayPlane.addShow(chosen, crtcID: 38, framebufferID: 77, frame: PixelRect(x: 280, y: 590, width: 720, height: 100), to: request)
        #expect(request.changes == [
            Change(objectID: 42, name: "FB_ID", value: 77), Change(objectID: 42, name: "CRTC_ID", value: 38),
            Change(objectID: 42, name: "SRC_X", value: 0), Change(objectID: 42, name: "SRC_Y", value: 0),
            Change(objectID: 42, name: "SRC_W", value: 720 << 16), Change(objectID: 42, name: "SRC_H", value: 100 << 16),
            Change(objectID: 42, name: "CRTC_X", value: 280), Change(objectID: 42, name: "CRTC_Y", value: 590),
            Change(objectID: 42, name: "CRTC_W", value: 720), Change(objectID: 42, name: "CRTC_H", value: 100),
        ])
    }

    @Test func showingSetsZposAndBlendModeWhereChosen() throws {
        let plane = T.plane(42, T.overlay, zpos: (0, 0...3, true), blendModes: ["None", "Pre-multiplied", "Coverage"])
        let chosen = try Self.chosen(plane, primary: T.plane(31, T.primary, zpos: (0, 0...0, false)))
        let request = try DRMAtomicRequest()
        try DRMOverlayPlane.addShow(chosen, crtcID: 38, framebufferID: 77, frame: PixelRect(x: 0, y: 0, width: 8, height: 4), to: request)
        #expect(request.value(of: 42, "zpos") == 1)
        #expect(request.value(of: 42, "pixel blend mode") == 1)
        #expect(request.changes.count == 12)
    }

    @Test func hidingClearsTheBufferAndTheCRTC() throws {
        let chosen = try Self.chosen(T.plane(42, T.overlay, zpos: (0, 0...3, true)))
        let request = try DRMAtomicRequest()
        try DRMOverlayPlane.addHide(chosen.properties, to: request)
        #expect(request.changes == [Change(objectID: 42, name: "FB_ID", value: 0), Change(objectID: 42, name: "CRTC_ID", value: 0)])
    }

    /// A property the driver does not list is an error naming it, never a guessed id.
    @Test func aMissingPropertyIsAnError() throws {
        let bare = DRMObjectProperties(objectID: 42, ids: ["FB_ID": 1])
        let request = try DRMAtomicRequest()
        #expect(throws: DRMRefusal.self) { try DRMOverlayPlane.addHide(bare, to: request) }
        #expect(request.changes == [Change(objectID: 42, name: "FB_ID", value: 0)])
    }
}
