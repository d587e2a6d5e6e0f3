import Foundation
import Logging
import MarqueeCEC
import MarqueeConfig
import MarqueeDRM
import MarqueeSession

/// Turns `display.cec` into the HDMI-CEC switch that joins the DRM output in displayOff/displayOn:
/// nil for `off`, for a headless output under `auto`, and when `auto` finds no adapter bound to the
/// connector the picture is on (said in one line when adapters exist).
enum CECFactory {
    /// How long a quit waits for a displayOff or displayOn not yet sent: a message acknowledged
    /// takes tens of milliseconds; one the TV never answers is not worth holding a SIGTERM past
    /// its 2 s promise for (the kernel would give up on it after 2.1 s).
    static let quitGrace = 0.5

    static func make(_ setting: DisplayConfiguration.CEC, display: DRMVideoOutput?, logger: Logger) -> CECDisplayPower? {
        switch setting {
        case .off:
            return nil
        case .device(let path):
            return CECDisplayPower(path: path, log: log(logger))
        case .auto:
            // Headless: no screen, so no TV to switch.
            guard let shown = display?.shownConnector else { return nil }
            guard let cardNumber = CECDRMConnector.cardNumber(ofDevicePath: resolved(shown.devicePath)) else {
                logger.debug("cec: \(shown.devicePath) is not a /dev/dri/cardN node; display.cec: auto has no connector to look for")
                return nil
            }
            var adapters: [CECAdapterFacts] = []
            for result in CECInventory.adapters() {
                switch result {
                case .success(let facts): adapters.append(facts)
                case .failure(let error): logger.debug("cec: \(error)")
                }
            }
            let connector = CECDRMConnector(cardNumber: cardNumber, connectorID: shown.connectorID)
            switch CECAdapterChoice.choose(among: adapters, showing: connector, connectorName: shown.name) {
            case .noAdapters:
                logger.debug("cec: no HDMI-CEC adapters (/dev/cec* does not exist)")
                return nil
            case .noneBound(let message):
                logger.info("\(message)")
                return nil
            case .adapter(let path):
                logger.info("cec: \(path) is bound to \(shown.name) (\(connector)), the connector the picture is on")
                return CECDisplayPower(path: path, log: log(logger))
            }
        }
    }

    private static func log(_ logger: Logger) -> CECLog {
        CECLog(info: { logger.info("\($0)") }, warning: { logger.warning("\($0)") }, error: { logger.error("\($0)") })
    }

    /// `/dev/dri/by-path/...-card` links resolved to the `cardN` node they point at.
    private static func resolved(_ path: String) -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map {
            $0.hasPrefix("/") ? $0 : URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent($0).standardized.path
        } ?? path
    }
}
