import CDRM
import MarqueeCore

/// Owns a drmModePlaneRes: the card's plane ids (all of them once universal planes are on).
final class DRMPlaneResources {
    private let handle: drmModePlaneResPtr
    let planeIDs: [UInt32]

    init(device: DRMDevice) throws(SystemError) {
        handle = try drmNonNull(drmModeGetPlaneResources(device.fd), "drmModeGetPlaneResources(\(device.path))")
        planeIDs = Array(UnsafeBufferPointer(start: handle.pointee.planes, count: Int(handle.pointee.count_planes)))
    }

    deinit {
        drmModeFreePlaneResources(handle)
    }

    /// Every plane's type, formats, CRTCs and properties, in the card's order.
    func planes(device: DRMDevice) throws(SystemError) -> [DRMPlaneFacts] {
        var planes: [DRMPlaneFacts] = []
        for id in planeIDs {
            let plane = try DRMPlane(device: device, id: id)
            let properties = try DRMObjectProperties(device: device, objectID: id, type: UInt32(DRM_MODE_OBJECT_PLANE), kind: "plane")
            planes.append(.init(properties: properties, possibleCrtcs: plane.possibleCrtcs, formats: plane.formats))
        }
        return planes
    }

    /// The primary plane that can feed the CRTC at `crtcIndex`: atomic modesets put the picture
    /// on a plane, and only the primary one must cover the whole screen on every driver.
    static func primaryPlane(among planes: [DRMPlaneFacts], crtcIndex: Int) throws(DRMRefusal) -> DRMObjectProperties {
        let primary = planes.first { plane in
            plane.canFeed(crtcIndex: crtcIndex) && plane.formats.contains(marquee_drm_format_xrgb8888())
                && plane.type == UInt64(DRM_PLANE_TYPE_PRIMARY)
        }
        guard let primary else {
            throw DRMRefusal(operation: "choosing a plane", reason: "no primary XRGB8888 plane for CRTC index \(crtcIndex)")
        }
        return primary.properties
    }
}
