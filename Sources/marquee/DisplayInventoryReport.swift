import Foundation
import MarqueeCore
import MarqueeDRM
import MarqueeSession

/// `marquee probe` without media: the display hardware, as aligned text an operator reads when the
/// wrong connector or mode came up, or as the `display` part of `--json` (the same facts).
enum DisplayInventoryReport {
    static func text(_ cards: [Result<DisplayCardInfo, SystemError>]) -> String {
        guard !cards.isEmpty else { return "display: no DRM cards (/dev/dri/card* does not exist)" }
        var lines: [String] = []
        for card in cards {
            switch card {
            case .failure(let error):
                lines.append("card: \(error)")
            case .success(let info):
                lines.append("card \(info.path)  driver \(info.driver)  crtcs \(info.crtcIDs.map(String.init).joined(separator: ","))")
                for crtc in info.crtcIDs {
                    lines.append("  crtc \(crtc)  \(info.activeCrtcIDs.contains(crtc) ? "active" : "inactive")")
                }
                for connector in info.connectors {
                    lines.append("  connector \(connector.name) (\(connector.id))  \(connector.isConnected ? "connected" : "disconnected")")
                    if let preferred = connector.modes.first(where: \.isPreferred) { lines.append("    preferred \(preferred)") }
                    if !connector.modes.isEmpty { lines.append("    modes \(connector.modes.map(\.description).joined(separator: " "))") }
                }
                for plane in info.planes {
                    lines.append("  plane \(plane.id) \(plane.kind)  formats \(plane.formats.joined(separator: ","))")
                    lines.append("    properties \(plane.properties.joined(separator: ","))")
                    lines.append("    rotation \(plane.rotations.isEmpty ? "none (turned in software)" : plane.rotations.joined(separator: ","))")
                    if !plane.scalingFilters.isEmpty {
                        lines.append("    scaling filters \(plane.scalingFilters.joined(separator: ","))")
                    }
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `{"cards":[...]}`: each card's facts, or `{"error":...}` for a card that could not be read.
    /// Modes are spelled as in the text (`1280x800@75`); `preferredMode` is null when none is flagged.
    static func object(_ cards: [Result<DisplayCardInfo, SystemError>]) -> [String: Any] {
        let cardObjects: [[String: Any]] = cards.map { card in
            switch card {
            case .failure(let error):
                return ["error": error.description]
            case .success(let info):
                return ["path": info.path, "driver": info.driver, "crtcs": info.crtcIDs.map(Int.init),
                        "activeCrtcs": info.activeCrtcIDs.map(Int.init),
                        "connectors": info.connectors.map(connectorObject), "planes": info.planes.map(planeObject)]
            }
        }
        return ["cards": cardObjects]
    }

    private static func connectorObject(_ connector: DisplayCardInfo.Connector) -> [String: Any] {
        ["id": Int(connector.id), "name": connector.name, "status": connector.isConnected ? "connected" : "disconnected",
         "preferredMode": connector.modes.first(where: \.isPreferred).map { $0.description as Any } ?? NSNull(),
         "modes": connector.modes.map(\.description)]
    }

    private static func planeObject(_ plane: DisplayCardInfo.Plane) -> [String: Any] {
        ["id": Int(plane.id), "type": plane.kind, "formats": plane.formats, "properties": plane.properties,
         "rotations": plane.rotations, "scalingFilters": plane.scalingFilters]
    }
}
