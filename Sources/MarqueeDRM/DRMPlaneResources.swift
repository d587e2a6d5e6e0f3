import CDRM

/// Owns a drmModePlaneRes: the card's plane ids (all of them once universal planes are on).
final class DRMPlaneResources {
    private let handle: drmModePlaneResPtr
    let planeIDs: [UInt32]

    init(device: DRMDevice) throws(DRMError) {
        handle = try drmNonNull(drmModeGetPlaneResources(device.fd), "drmModeGetPlaneResources(\(device.path))")
        planeIDs = Array(UnsafeBufferPointer(start: handle.pointee.planes, count: Int(handle.pointee.count_planes)))
    }

    deinit {
        drmModeFreePlaneResources(handle)
    }

    /// The primary plane that can feed the CRTC at `crtcIndex`: atomic modesets put the picture
    /// on a plane, and only the primary one must cover the whole screen on every driver.
    func primaryPlane(device: DRMDevice, crtcIndex: Int) throws(DRMError) -> DRMObjectProperties {
        for id in planeIDs {
            let plane = try DRMPlane(device: device, id: id)
            guard plane.possibleCrtcs & (1 << UInt32(crtcIndex)) != 0,
                  plane.formats.contains(marquee_drm_format_xrgb8888()) else { continue }
            let properties = try DRMObjectProperties(device: device, objectID: id, type: UInt32(DRM_MODE_OBJECT_PLANE), kind: "plane")
            if properties.values["type"] == UInt64(DRM_PLANE_TYPE_PRIMARY) { return properties }
        }
        throw DRMError(operation: "choosing a plane", message: "no primary XRGB8888 plane for CRTC index \(crtcIndex)")
    }
}
