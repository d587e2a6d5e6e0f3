/// Picks the connector to drive (`display.connector`): a name such as `HDMI-A-1`, or `auto` for the
/// first connected one, and says why.
public struct ConnectorChoice: Hashable, Sendable {
    /// What the chooser needs to know about one connector.
    public struct Candidate: Hashable, Sendable {
        public var name: String
        public var isConnected: Bool
        public var modeCount: Int

        public init(name: String, isConnected: Bool, modeCount: Int) {
            self.name = name
            self.isConnected = isConnected
            self.modeCount = modeCount
        }
    }

    public let index: Int
    public let reason: String

    public static let automatic = "auto"

    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        case noneConnected(names: [String])
        case unknown(String, names: [String])
        case disconnected(String)

        public var description: String {
            switch self {
            case .noneConnected(let names):
                "no connector has a screen connected (connectors: \(names.isEmpty ? "none" : names.joined(separator: ", ")))"
            case .unknown(let name, let names):
                "no connector named \(name) (connectors: \(names.isEmpty ? "none" : names.joined(separator: ", ")))"
            case .disconnected(let name):
                "connector \(name) has no screen connected"
            }
        }
    }

    public static func choose(_ request: String, from candidates: [Candidate]) -> Result<ConnectorChoice, Failure> {
        let names = candidates.map(\.name)
        if request.lowercased() == automatic {
            // A connector that says connected but lists no modes cannot be driven (a dead EDID).
            guard let index = candidates.firstIndex(where: { $0.isConnected && $0.modeCount > 0 }) else {
                return .failure(.noneConnected(names: names))
            }
            return .success(ConnectorChoice(index: index, reason: "auto: the first connected connector"))
        }
        guard let index = candidates.firstIndex(where: { $0.name.lowercased() == request.lowercased() }) else {
            return .failure(.unknown(request, names: names))
        }
        guard candidates[index].isConnected, candidates[index].modeCount > 0 else {
            return .failure(.disconnected(candidates[index].name))
        }
        return .success(ConnectorChoice(index: index, reason: "named in the config"))
    }
}
