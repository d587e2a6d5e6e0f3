import CDRM
import Glibc
import MarqueeCore

/// Reads every DRM card's connectors, modes, CRTCs and planes without becoming master, so probing
/// works while a player or console owns the screen.
public enum DRMInventory {
    /// One entry per /dev/dri/card* that exists: its facts, or why it could not be read.
    public static func cards() -> [Result<DisplayCardInfo, SystemError>] {
        DRMCard.searchPaths.filter { access($0, F_OK) == 0 }.map { path in
            Result { () throws(SystemError) -> DisplayCardInfo in try read(path: path) }
        }
    }

    private static func read(path: String) throws(SystemError) -> DisplayCardInfo {
        let device = try DRMDevice(path: path)
        // Without this cap the kernel hides primary and cursor planes from the list; the atomic one
        // also shows the CRTCs' ACTIVE property.
        _ = drmSetClientCap(device.fd, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1)
        let atomic = device.enableAtomic()
        let resources = try DRMResources(device: device)
        var connectors: [DisplayCardInfo.Connector] = []
        for id in resources.connectorIDs {
            let connector = try DRMConnector(device: device, id: id)
            connectors.append(.init(id: id, name: connector.name, isConnected: connector.isConnected, modes: connector.modes))
        }
        var planes: [DisplayCardInfo.Plane] = []
        for id in try DRMPlaneResources(device: device).planeIDs {
            let plane = try DRMPlane(device: device, id: id)
            let properties = try DRMObjectProperties(device: device, objectID: id, type: UInt32(DRM_MODE_OBJECT_PLANE), kind: "plane")
            planes.append(.init(id: id, kind: kind(ofPlaneType: properties.values["type"]),
                                formats: plane.formats.map(fourcc), properties: properties.ids.keys.sorted(),
                                rotations: properties.enumValues["rotation"]?.map(\.name) ?? [],
                                scalingFilters: properties.enumValues["SCALING_FILTER"]?.map(\.name) ?? []))
        }
        let active = resources.crtcIDs.filter { isActive(crtc: $0, device: device, atomic: atomic) }
        return DisplayCardInfo(path: path, driver: driverName(device), connectors: connectors,
                               crtcIDs: resources.crtcIDs, activeCrtcIDs: active, planes: planes)
    }

    /// ACTIVE where the driver is atomic: its legacy view keeps the mode valid while the CRTC is off.
    private static func isActive(crtc id: UInt32, device: DRMDevice, atomic: Bool) -> Bool {
        if atomic, let properties = try? DRMObjectProperties(device: device, objectID: id, type: UInt32(DRM_MODE_OBJECT_CRTC), kind: "CRTC"),
           let active = properties.values["ACTIVE"] {
            return active != 0
        }
        guard let crtc = drmModeGetCrtc(device.fd, id) else { return false }
        defer { drmModeFreeCrtc(crtc) }
        return crtc.pointee.mode_valid != 0
    }

    private static func driverName(_ device: DRMDevice) -> String {
        guard let version = drmGetVersion(device.fd) else { return "unknown" }
        defer { drmFreeVersion(version) }
        guard let name = version.pointee.name else { return "unknown" }
        return String(cString: name)
    }

    /// The `type` property's values (DRM_PLANE_TYPE_*).
    private static func kind(ofPlaneType value: UInt64?) -> String {
        switch value {
        case 0: "overlay"
        case 1: "primary"
        case 2: "cursor"
        default: "unknown"
        }
    }

    private static func fourcc(_ code: UInt32) -> String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: code >> (8 * $0)) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
