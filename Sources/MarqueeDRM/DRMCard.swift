import Glibc
import MarqueeCore

/// An opened card with its connectors read, and which of them has a screen.
struct DRMCard {
    let device: DRMDevice
    let resources: DRMResources
    let connectors: [DRMConnector]

    static let searchPaths = (0..<16).map { "/dev/dri/card\($0)" }

    init(path: String) throws(SystemError) {
        try self.init(device: try DRMDevice(path: path))
    }

    /// Reads the connectors again on an open card (after a hotplug), probing each sink.
    init(device: DRMDevice) throws(SystemError) {
        self.device = device
        resources = try DRMResources(device: device)
        var connectors: [DRMConnector] = []
        for id in resources.connectorIDs {
            let connector = try DRMConnector(device: device, id: id)
            // Listed once screenshots asked for writeback connectors: never a screen to show on.
            if !connector.isWriteback { connectors.append(connector) }
        }
        self.connectors = connectors
    }

    var hasConnectedScreen: Bool {
        connectors.contains { $0.isConnected && !$0.modeInfos.isEmpty }
    }

    /// The first card with a connected screen; every card tried and why it was passed over
    /// otherwise, so "no screen" is explained (no /dev/dri, a render-only card, nothing plugged in).
    static func firstConnected() -> Result<DRMCard, DRMRefusal> {
        var passedOver: [String] = []
        for path in searchPaths where access(path, F_OK) == 0 {
            do {
                let card = try DRMCard(path: path)
                if card.hasConnectedScreen { return .success(card) }
                passedOver.append("\(path): no connected connector")
            } catch {
                passedOver.append("\(path): \(error)")
            }
        }
        let why = passedOver.isEmpty ? "no /dev/dri/card* exists" : passedOver.joined(separator: "; ")
        return .failure(DRMRefusal(operation: "looking for a card with a connected screen", reason: why))
    }
}
