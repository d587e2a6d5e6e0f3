import CDRM
import MarqueeCore

/// Owns a drmModeConnector; exposes its name (`HDMI-A-1`, `Virtual-1`), status and modes.
final class DRMConnector {
    private let handle: drmModeConnectorPtr
    let id: UInt32
    let name: String
    /// DRM_MODE_CONNECTOR_HDMIA, ..._WRITEBACK.
    let type: UInt32
    let isConnected: Bool
    /// The kernel's modes, as they must be handed back to it for a modeset.
    let modeInfos: [drmModeModeInfo]
    let encoderIDs: [UInt32]
    let currentEncoderID: UInt32

    /// `probing` (drmModeGetConnector) re-reads the sink's EDID, which a player starting on a screen
    /// that just powered up needs; without it (drmModeGetConnectorCurrent) the kernel's last known
    /// state is returned at no cost, which is what a periodic hotplug check wants.
    init(device: DRMDevice, id: UInt32, probing: Bool = true) throws(SystemError) {
        handle = probing
            ? try drmNonNull(drmModeGetConnector(device.fd, id), "drmModeGetConnector(\(id))")
            : try drmNonNull(drmModeGetConnectorCurrent(device.fd, id), "drmModeGetConnectorCurrent(\(id))")
        let c = handle.pointee
        self.id = id
        let typeName = drmModeGetConnectorTypeName(c.connector_type).map { String(cString: $0) } ?? "Unknown\(c.connector_type)"
        name = "\(typeName)-\(c.connector_type_id)"
        type = c.connector_type
        isConnected = c.connection == DRM_MODE_CONNECTED
        modeInfos = Array(UnsafeBufferPointer(start: c.modes, count: Int(c.count_modes)))
        encoderIDs = Array(UnsafeBufferPointer(start: c.encoders, count: Int(c.count_encoders)))
        currentEncoderID = c.encoder_id
    }

    deinit {
        drmModeFreeConnector(handle)
    }

    var modes: [DisplayMode] { modeInfos.map(DisplayMode.init(drm:)) }

    /// Captures a CRTC's picture rather than showing it; listed only to an fd that asked for them.
    var isWriteback: Bool { type == UInt32(DRM_MODE_CONNECTOR_WRITEBACK) }

    var candidate: ConnectorChoice.Candidate {
        ConnectorChoice.Candidate(name: name, isConnected: isConnected, modeCount: modeInfos.count)
    }
}

extension DisplayMode {
    init(drm info: drmModeModeInfo) {
        var rate = 0.0
        if info.htotal > 0 && info.vtotal > 0 {
            rate = Double(info.clock) * 1000 / (Double(info.htotal) * Double(info.vtotal))
            if info.flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0 { rate *= 2 }
            if info.flags & UInt32(DRM_MODE_FLAG_DBLSCAN) != 0 { rate /= 2 }
            if info.vscan > 1 { rate /= Double(info.vscan) }
        }
        self.init(size: PixelSize(width: Int(info.hdisplay), height: Int(info.vdisplay)),
                  refreshRate: rate, isPreferred: info.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0)
    }
}
