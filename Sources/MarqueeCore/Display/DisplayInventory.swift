/// What a DRM card offers, for `marquee probe` (no DRM type, so the CLI can print it).
public struct DisplayCardInfo: Sendable, Equatable {
    public struct Connector: Sendable, Equatable {
        public var id: UInt32
        public var name: String
        public var isConnected: Bool
        /// In the driver's order; the preferred one is flagged.
        public var modes: [DisplayMode]

        public init(id: UInt32, name: String, isConnected: Bool, modes: [DisplayMode]) {
            self.id = id
            self.name = name
            self.isConnected = isConnected
            self.modes = modes
        }
    }

    public struct Plane: Sendable, Equatable {
        public var id: UInt32
        /// `primary`, `overlay` or `cursor`.
        public var kind: String
        /// Fourcc codes, e.g. `XR24`, `NV12`.
        public var formats: [String]
        /// Every property the driver offers on the plane: `rotation`, `SCALING_FILTER`, `zpos`...
        public var properties: [String]
        /// The `rotation` property's values (`rotate-0`, `rotate-90`, `reflect-x`...); empty without one.
        public var rotations: [String]
        /// The `SCALING_FILTER` property's values; empty when the plane has none.
        public var scalingFilters: [String]

        public init(id: UInt32, kind: String, formats: [String], properties: [String],
                    rotations: [String] = [], scalingFilters: [String] = []) {
            self.id = id
            self.kind = kind
            self.formats = formats
            self.properties = properties
            self.rotations = rotations
            self.scalingFilters = scalingFilters
        }
    }

    public var path: String
    public var driver: String
    public var connectors: [Connector]
    public var crtcIDs: [UInt32]
    /// The CRTCs scanning out now (atomic ACTIVE, or a legacy mode set): a CRTC of a display
    /// switched off (displayOff) is listed but not active.
    public var activeCrtcIDs: [UInt32]
    public var planes: [Plane]

    public init(path: String, driver: String, connectors: [Connector], crtcIDs: [UInt32], activeCrtcIDs: [UInt32] = [],
                planes: [Plane]) {
        self.path = path
        self.driver = driver
        self.connectors = connectors
        self.crtcIDs = crtcIDs
        self.activeCrtcIDs = activeCrtcIDs
        self.planes = planes
    }
}
