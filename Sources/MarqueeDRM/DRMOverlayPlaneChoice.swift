import CDRM

/// Which plane the OSD goes on, if any: one of type OVERLAY that can feed our CRTC, takes
/// ARGB8888 (premultiplied, as the OSD is painted) and can sit above the primary plane. Pure: it
/// reads facts about planes, so it is tested with made-up plane lists.
enum DRMOverlayPlaneChoice {
    /// The chosen plane and what its commits set besides the buffer and the rectangles.
    struct Chosen {
        let properties: DRMObjectProperties
        /// Set to put the plane above the primary one; nil leaves the plane's own (already above,
        /// or a driver without zpos, where overlays go above the primary).
        let zpos: UInt64?
        /// The "pixel blend mode" value for premultiplied alpha; nil when the plane has no such
        /// property (premultiplied is the default) or does not let it be set.
        let premultipliedBlendMode: UInt64?

        var id: UInt32 { properties.objectID }
        /// How the log names it.
        var name: String { "overlay plane \(id) (ARGB8888)" }
    }

    enum Outcome {
        case plane(Chosen)
        /// Why the OSD is blended instead, for the log line.
        case none(reason: String)
    }

    static let noPlaneReason = "no ARGB overlay plane on this CRTC"

    /// The first plane, in the card's order, that fits the CRTC `crtcID` (the card's
    /// `crtcIndex`-th) above `primary`. A plane showing on another CRTC now is someone else's (a
    /// player on another head): taking it, even only to hide it at the modeset, would take theirs.
    static func choose(from planes: [DRMPlaneFacts], crtcID: UInt32, crtcIndex: Int, primary: DRMObjectProperties) -> Outcome {
        let overlays = planes.filter { $0.type == UInt64(DRM_PLANE_TYPE_OVERLAY) }
        guard !overlays.isEmpty else { return .none(reason: "\(noPlaneReason); the card has no overlay planes") }
        let ours = overlays.filter { $0.canFeed(crtcIndex: crtcIndex) }
        guard !ours.isEmpty else { return .none(reason: "\(noPlaneReason); no overlay plane can feed it") }
        let argb = ours.filter { $0.formats.contains(marquee_drm_format_argb8888()) }
        guard !argb.isEmpty else { return .none(reason: "\(noPlaneReason); its overlay planes do not take ARGB8888") }
        let free = argb.filter { [0, UInt64(crtcID)].contains($0.properties.values["CRTC_ID"] ?? 0) }
        guard !free.isEmpty else { return .none(reason: "\(noPlaneReason); its ARGB overlay planes are in use on other CRTCs") }
        for candidate in free {
            let zpos: UInt64?
            switch stacking(of: candidate.properties, above: primary) {
            case .above: zpos = nil
            case .settable(let value): zpos = value
            case .below: continue
            }
            let blend = candidate.properties.immutable.contains(blendModeName) ? nil
                : candidate.properties.enumValue(blendModeName, "Pre-multiplied")
            return .plane(Chosen(properties: candidate.properties, zpos: zpos, premultipliedBlendMode: blend))
        }
        return .none(reason: "\(noPlaneReason); its ARGB overlay planes cannot go above the primary plane")
    }

    static let blendModeName = "pixel blend mode"

    private enum Stacking {
        /// Above already, or no zpos at all (overlays go above the primary then).
        case above
        /// Below or level now, but the plane's zpos can be set to this.
        case settable(UInt64)
        /// A fixed zpos, or a range ending, at or below the primary plane's.
        case below
    }

    private static func stacking(of plane: DRMObjectProperties, above primary: DRMObjectProperties) -> Stacking {
        guard let current = plane.values["zpos"] else { return .above }
        let primaryZ = primary.values["zpos"] ?? 0
        if current > primaryZ { return .above }
        guard !plane.immutable.contains("zpos"), let range = plane.ranges["zpos"], range.contains(primaryZ + 1) else { return .below }
        return .settable(primaryZ + 1)
    }
}
