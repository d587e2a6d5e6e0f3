import CDRM
import MarqueeCore

/// Reads the facts of a card's writeback connectors, which the kernel lists only to a client that
/// asked for them (DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, itself allowed only after
/// DRM_CLIENT_CAP_ATOMIC). The card's other readers (`DRMCard`) leave writeback connectors out,
/// so a screen is never chosen among them once the fd has asked.
enum DRMWritebackConnectorReader {
    /// Every writeback connector of `device`'s card; throws when the driver refuses the client cap.
    static func read(device: DRMDevice) throws -> [DRMWritebackConnectorFacts] {
        try drmChecked(drmSetClientCap(device.fd, UInt64(DRM_CLIENT_CAP_WRITEBACK_CONNECTORS), 1),
                       "drmSetClientCap(DRM_CLIENT_CAP_WRITEBACK_CONNECTORS) on \(device.path)")
        var found: [DRMWritebackConnectorFacts] = []
        for id in try DRMResources(device: device).connectorIDs {
            let connector = try DRMConnector(device: device, id: id, probing: false)
            guard connector.isWriteback else { continue }
            let properties = try DRMObjectProperties(device: device, objectID: id, type: UInt32(DRM_MODE_OBJECT_CONNECTOR), kind: "connector")
            var possibleCrtcs: UInt32 = 0
            for encoderID in connector.encoderIDs {
                possibleCrtcs |= try DRMEncoder(device: device, id: encoderID).possibleCrtcs
            }
            let formatsBlob = properties.values["WRITEBACK_PIXEL_FORMATS"] ?? 0
            let formats = formatsBlob == 0 ? [] : try formats(device: device, blobID: UInt32(formatsBlob))
            found.append(DRMWritebackConnectorFacts(properties: properties, type: connector.type,
                                                    possibleCrtcs: possibleCrtcs, formats: formats))
        }
        return found
    }

    /// WRITEBACK_PIXEL_FORMATS is a blob of 32-bit fourccs.
    private static func formats(device: DRMDevice, blobID: UInt32) throws(SystemError) -> [UInt32] {
        let blob = try drmNonNull(drmModeGetPropertyBlob(device.fd, blobID), "drmModeGetPropertyBlob(\(blobID))")
        defer { drmModeFreePropertyBlob(blob) }
        let count = Int(blob.pointee.length) / MemoryLayout<UInt32>.size
        guard count > 0, let data = blob.pointee.data else { return [] }
        return Array(UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt32.self), count: count))
    }
}
