/// Picks the mode to set from what a connector offers, and says why, for the one log line that
/// tells an installer what the screen is running at.
public struct DisplayModeChoice: Hashable, Sendable {
    /// Index into the offered modes.
    public let index: Int
    public let mode: DisplayMode
    public let reason: String

    /// A requested rate within this of an offered one counts as that rate: EDIDs round (60 vs
    /// 59.94), and people write what the TV's menu says.
    public static let rateTolerance = 0.6

    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        case noModes
        case noSuchSize(DisplayModeRequest, offered: [DisplayMode])
        case noSuchRate(DisplayModeRequest, offered: [DisplayMode])

        public var description: String {
            switch self {
            case .noModes:
                "the connector offers no modes"
            case .noSuchSize(let request, let offered), .noSuchRate(let request, let offered):
                "mode \(request) is not offered (offered: \(offered.map(\.description).joined(separator: ", ")))"
            }
        }
    }

    public static func choose(_ request: DisplayModeRequest, from modes: [DisplayMode]) -> Result<DisplayModeChoice, Failure> {
        guard !modes.isEmpty else { return .failure(.noModes) }
        switch request {
        case .preferred:
            if let index = modes.firstIndex(where: \.isPreferred) {
                return .success(DisplayModeChoice(index: index, mode: modes[index], reason: "the connector's preferred mode"))
            }
            // Drivers list modes best first, so without a flag the first one is the sink's choice.
            return .success(DisplayModeChoice(index: 0, mode: modes[0], reason: "no mode flagged preferred: the first one listed"))
        case .size(let size, let rate):
            let sameSize = modes.indices.filter { modes[$0].size == size }
            guard !sameSize.isEmpty else { return .failure(.noSuchSize(request, offered: modes)) }
            guard let rate else {
                // Highest rate; among equal rates the preferred mode, then the first listed.
                let best = sameSize.max { a, b in rank(modes[a], a) < rank(modes[b], b) }!
                return .success(DisplayModeChoice(index: best, mode: modes[best], reason: "requested \(request): the highest rate at that size"))
            }
            let nearest = sameSize.min { a, b in
                let da = abs(modes[a].refreshRate - rate), db = abs(modes[b].refreshRate - rate)
                return da != db ? da < db : (modes[a].isPreferred && !modes[b].isPreferred)
            }!
            guard abs(modes[nearest].refreshRate - rate) <= rateTolerance else {
                return .failure(.noSuchRate(request, offered: modes))
            }
            return .success(DisplayModeChoice(index: nearest, mode: modes[nearest], reason: "requested \(request): the nearest rate offered"))
        }
    }

    /// Orders by rate, then preferred, then earlier in the list.
    private static func rank(_ mode: DisplayMode, _ index: Int) -> (Double, Int, Int) {
        (mode.refreshRate, mode.isPreferred ? 1 : 0, -index)
    }
}
