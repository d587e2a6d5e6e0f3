/// `display.cec: auto`: the adapter whose connector info names the DRM connector the picture is
/// on. Pure: given what the adapters say and where the picture is, which one, or the one line that
/// says why none.
public enum CECAdapterChoice: Hashable, Sendable {
    /// This adapter is bound to the connector shown.
    case adapter(path: String)
    /// No /dev/cec* at all: nothing to say above debug (most devices have no CEC).
    case noAdapters
    /// Adapters exist but none is bound to the connector: the one info line for the journal.
    case noneBound(message: String)

    /// `connectorName` (`HDMI-A-1`) only makes the message readable.
    public static func choose(among adapters: [CECAdapterFacts], showing shown: CECDRMConnector,
                              connectorName: String? = nil) -> CECAdapterChoice {
        guard !adapters.isEmpty else { return .noAdapters }
        if let bound = adapters.first(where: { $0.connector == .drm(shown) && $0.canTransmit }) {
            return .adapter(path: bound.path)
        }
        let found = adapters.map { "\($0.path) (\($0.name.isEmpty ? $0.driver : $0.name), connector \($0.connector))" }
        let place = "\(shown)" + (connectorName.map { " (\($0))" } ?? "")
        let them = adapters.count == 1 ? "it is not" : "none is"
        return .noneBound(message: "cec: found \(found.joined(separator: ", ")); \(them) bound to \(place), "
            + "the connector the picture is on: set display.cec: /dev/cecN to use one; no HDMI-CEC")
    }
}
