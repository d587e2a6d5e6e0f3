/// What one `/dev/cecN` says about itself: for `marquee probe`, and for `display.cec: auto` to find
/// the adapter on the connector the picture is on. Plain values, read once.
public struct CECAdapterFacts: Hashable, Sendable {
    public var path: String
    /// The kernel driver (`vivid`, `dw_hdmi`, `vc4_hdmi`, `i915`...) and the adapter's name.
    public var driver: String
    public var name: String
    /// How many logical addresses the adapter can claim at once.
    public var availableLogicalAddresses: Int
    /// The driver lets programs claim logical addresses and transmit (an adapter that only monitors does not).
    public var canTransmit: Bool
    public var physicalAddress: CECPhysicalAddress
    /// The addresses claimed now (by any program, or by a previous run: the claim outlives the fd).
    public var logicalAddresses: [CECLogicalAddress]
    /// The OSD name claimed with them; empty when none.
    public var osdName: String
    public var connector: CECConnector

    public init(path: String, driver: String, name: String, availableLogicalAddresses: Int = 4, canTransmit: Bool = true,
                physicalAddress: CECPhysicalAddress = .invalid, logicalAddresses: [CECLogicalAddress] = [],
                osdName: String = "", connector: CECConnector = .notReported) {
        self.path = path
        self.driver = driver
        self.name = name
        self.availableLogicalAddresses = availableLogicalAddresses
        self.canTransmit = canTransmit
        self.physicalAddress = physicalAddress
        self.logicalAddresses = logicalAddresses
        self.osdName = osdName
        self.connector = connector
    }
}

/// Which display connector an adapter belongs to, as CEC_ADAP_G_CONNECTOR_INFO tells it.
public enum CECConnector: Hashable, Sendable, CustomStringConvertible {
    /// The driver does not say (no CEC_CAP_CONNECTOR_INFO): vivid, USB adapters, older drivers.
    case notReported
    /// The driver says, but no connector is bound now (the HDMI driver not bound yet, or unbound).
    case none
    /// DRM card N (`/dev/dri/cardN`) and the connector's object id.
    case drm(CECDRMConnector)
    /// A connector type this build does not know.
    case other(type: UInt32)

    public var description: String {
        switch self {
        case .notReported: "not reported by the driver"
        case .none: "none"
        case .drm(let connector): connector.description
        case .other(let type): "of unknown type \(type)"
        }
    }
}

/// A DRM connector as the kernel names it to CEC: the card's minor number and the connector id.
public struct CECDRMConnector: Hashable, Sendable, CustomStringConvertible {
    public var cardNumber: UInt32
    public var connectorID: UInt32

    public init(cardNumber: UInt32, connectorID: UInt32) {
        self.cardNumber = cardNumber
        self.connectorID = connectorID
    }

    /// `card0 connector 35`.
    public var description: String { "card\(cardNumber) connector \(connectorID)" }

    /// N of a device node's name `cardN` (`/dev/dri/card1` → 1), after any symlink is resolved by
    /// the caller; nil for anything else (a render node, a by-path link).
    public static func cardNumber(ofDevicePath path: String) -> UInt32? {
        guard let name = path.split(separator: "/").last, name.hasPrefix("card") else { return nil }
        let digits = name.dropFirst(4)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return UInt32(digits)
    }
}
