import Foundation
import MarqueeCEC
import MarqueeCore
import MarqueeSession

/// `marquee probe` without media: the HDMI-CEC adapters (`/dev/cecN`), for an operator choosing
/// `display.cec`: which driver, where on the HDMI tree, which addresses are claimed, and which DRM
/// connector each belongs to (what `display.cec: auto` matches).
enum CECInventoryReport {
    static func text(_ adapters: [Result<CECAdapterFacts, SystemError>]) -> String {
        guard !adapters.isEmpty else { return "cec: no HDMI-CEC adapters (/dev/cec* does not exist)" }
        var lines: [String] = []
        for adapter in adapters {
            switch adapter {
            case .failure(let error):
                lines.append("cec: \(error)")
            case .success(let facts):
                lines.append("cec \(facts.path)  driver \(facts.driver)  name \(facts.name)"
                    + (facts.canTransmit ? "" : "  (monitor only: cannot claim or transmit)"))
                lines.append("  physical address \(facts.physicalAddress.isValid ? facts.physicalAddress.description : "none (f.f.f.f)")")
                let claimed = facts.logicalAddresses.map { "\($0.rawValue) (\($0.name))" }.joined(separator: ", ")
                lines.append("  logical addresses " + (claimed.isEmpty ? "none claimed" : claimed)
                    + (facts.osdName.isEmpty ? "" : "  osd name '\(facts.osdName)'"))
                lines.append("  connector \(facts.connector)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `{"adapters":[...]}`: each adapter's facts, or `{"error":...}` for one that could not be read.
    /// `physicalAddress` is null when there is none; `connector` is null when the driver does not say.
    static func object(_ adapters: [Result<CECAdapterFacts, SystemError>]) -> [String: Any] {
        let objects: [[String: Any]] = adapters.map { adapter in
            switch adapter {
            case .failure(let error):
                return ["error": error.description]
            case .success(let facts):
                return ["path": facts.path, "driver": facts.driver, "name": facts.name, "canTransmit": facts.canTransmit,
                        "availableLogicalAddresses": facts.availableLogicalAddresses,
                        "physicalAddress": facts.physicalAddress.isValid ? facts.physicalAddress.description as Any : NSNull(),
                        "logicalAddresses": facts.logicalAddresses.map { ["address": Int($0.rawValue), "name": $0.name] },
                        "osdName": facts.osdName, "connector": connectorObject(facts.connector)]
            }
        }
        return ["adapters": objects]
    }

    private static func connectorObject(_ connector: CECConnector) -> Any {
        switch connector {
        case .notReported: NSNull()
        case .none: ["type": "none"]
        case .drm(let drm): ["type": "drm", "card": Int(drm.cardNumber), "connectorId": Int(drm.connectorID)]
        case .other(let type): ["type": "other", "value": Int(type)]
        }
    }
}
