import Testing
@testable import MarqueeDRM

/// Which plane the OSD goes on: an OVERLAY plane that can feed our CRTC, takes ARGB8888 and can
/// be above the primary plane; anything else leaves the OSD blended, with the reason the log says.
@Suite struct OverlayPlaneChoiceTests {
    typealias T = PlaneTable

    static func choose(_ planes: [DRMPlaneFacts], crtcIndex: Int = 0) -> DRMOverlayPlaneChoice.Outcome {
        let primary = planes.first { $0.type == T.primary }?.properties ?? T.plane(1, T.primary).properties
        return DRMOverlayPlaneChoice.choose(from: planes, crtcID: 38 + UInt32(crtcIndex), crtcIndex: crtcIndex, primary: primary)
    }

    static func chosen(_ outcome: DRMOverlayPlaneChoice.Outcome) -> DRMOverlayPlaneChoice.Chosen? {
        if case .plane(let chosen) = outcome { chosen } else { nil }
    }

    static func reason(_ outcome: DRMOverlayPlaneChoice.Outcome) -> String? {
        if case .none(let reason) = outcome { reason } else { nil }
    }

    @Test func anARGBOverlayPlaneOfOurCRTCIsChosen() {
        let outcome = Self.choose([T.plane(31, T.primary), T.plane(42, T.overlay), T.plane(50, T.cursor, formats: [T.argb])])
        let chosen = Self.chosen(outcome)
        #expect(chosen?.id == 42)
        #expect(chosen?.name == "overlay plane 42 (ARGB8888)")
        // No zpos and no blend mode property: nothing set besides the buffer and the rectangles.
        #expect(chosen?.zpos == nil && chosen?.premultipliedBlendMode == nil)
    }

    /// Both QEMU drivers: bochs-drm has a primary plane only, virtio-gpu a primary and a cursor
    /// plane (taking ARGB8888, but a cursor is not an overlay).
    @Test func primaryAndCursorPlanesAloneLeaveTheOSDBlended() {
        for planes in [T.bochs, T.virtio] {
            #expect(Self.reason(Self.choose(planes)) == "no ARGB overlay plane on this CRTC; the card has no overlay planes")
        }
    }

    @Test func anOverlayPlaneOfAnotherCRTCIsNotChosen() {
        let planes = [T.plane(31, T.primary, crtcs: 0b11), T.plane(42, T.overlay, crtcs: 0b10)]
        #expect(Self.reason(Self.choose(planes, crtcIndex: 0)) == "no ARGB overlay plane on this CRTC; no overlay plane can feed it")
        #expect(Self.chosen(Self.choose(planes, crtcIndex: 1))?.id == 42)
    }

    @Test func anOverlayPlaneWithoutARGB8888IsNotChosen() {
        let planes = [T.plane(31, T.primary), T.plane(42, T.overlay, formats: [T.xrgb, T.nv12])]
        #expect(Self.reason(Self.choose(planes)) == "no ARGB overlay plane on this CRTC; its overlay planes do not take ARGB8888")
        // The first in the card's order that fits wins.
        let more = planes + [T.plane(43, T.overlay, crtcs: 0b10), T.plane(44, T.overlay), T.plane(45, T.overlay)]
        #expect(Self.chosen(Self.choose(more))?.id == 44)
    }

    /// A plane showing on another CRTC now belongs to whoever drives that head.
    @Test func anOverlayPlaneInUseOnAnotherCRTCIsNotChosen() {
        let elsewhere = T.plane(42, T.overlay, crtcs: 0b11, crtcNow: 39)
        #expect(Self.reason(Self.choose([T.plane(31, T.primary), elsewhere]))
                == "no ARGB overlay plane on this CRTC; its ARGB overlay planes are in use on other CRTCs")
        let ours = T.plane(43, T.overlay, crtcNow: 38)
        #expect(Self.chosen(Self.choose([T.plane(31, T.primary), elsewhere, ours]))?.id == 43)
    }

    /// zpos: a plane level with or below the primary one is moved above it where its zpos can be
    /// set; one fixed below it is passed over.
    @Test func theOverlayIsPutAboveThePrimaryPlane() {
        let primary = T.plane(31, T.primary, zpos: (0, 0...0, false))
        let settable = T.plane(42, T.overlay, zpos: (0, 0...3, true))
        #expect(Self.chosen(Self.choose([primary, settable]))?.zpos == 1)
        let above = T.plane(42, T.overlay, zpos: (2, 0...3, true))
        #expect(Self.chosen(Self.choose([primary, above]))?.zpos == nil)
        let fixedAbove = T.plane(42, T.overlay, zpos: (1, 1...1, false))
        #expect(Self.chosen(Self.choose([primary, fixedAbove])) != nil)

        let highPrimary = T.plane(31, T.primary, zpos: (2, 2...2, false))
        let fixedBelow = T.plane(42, T.overlay, zpos: (1, 1...1, false))
        let rangeTooLow = T.plane(43, T.overlay, zpos: (0, 0...2, true))
        #expect(Self.reason(Self.choose([highPrimary, fixedBelow, rangeTooLow]))
                == "no ARGB overlay plane on this CRTC; its ARGB overlay planes cannot go above the primary plane")
        #expect(Self.chosen(Self.choose([highPrimary, fixedBelow, T.plane(44, T.overlay, zpos: (0, 0...5, true))]))?.zpos == 3)
    }

    /// The OSD is painted premultiplied: where the plane says how it blends, it is told so.
    @Test func aPlaneWithABlendModeIsToldPremultiplied() {
        let plane = T.plane(42, T.overlay, blendModes: ["None", "Pre-multiplied", "Coverage"])
        #expect(Self.chosen(Self.choose([T.plane(31, T.primary), plane]))?.premultipliedBlendMode == 1)
        let coverageOnly = T.plane(42, T.overlay, blendModes: ["Coverage"])
        #expect(Self.chosen(Self.choose([T.plane(31, T.primary), coverageOnly]))?.premultipliedBlendMode == nil)
    }
}
