import MarqueeConfig
import MarqueeCore
import MarqueeDRM
import MarqueeSession

/// `marquee probe --config CONFIG`: each screen of the config's `displays:` against the hardware:
/// its connector (on which card, connected or not), the mode it would be given, and what it plays
/// or mirrors. What an installer checks before the first `marquee play`.
enum ScreenInventoryReport {
    struct Line {
        let screen: ScreenConfiguration
        /// `/dev/dri/card0`, nil when no card has the connector.
        let card: String?
        let isConnected: Bool
        /// The mode `play` would choose; nil, with the reason in `problem`, when there is none.
        let mode: DisplayMode?
        let problem: String?
    }

    static func lines(_ screens: [ScreenConfiguration], cards: [Result<DisplayCardInfo, SystemError>]) -> [Line] {
        let known = cards.compactMap { try? $0.get() }
        return screens.map { screen in
            for card in known {
                let automatic = screen.connector.lowercased() == ConnectorChoice.automatic
                guard let connector = card.connectors.first(where: {
                    automatic ? $0.isConnected && !$0.modes.isEmpty : $0.name.lowercased() == screen.connector.lowercased()
                }) else { continue }
                var mode: DisplayMode?, problem: String?
                if !connector.isConnected {
                    problem = "disconnected"
                } else {
                    switch DisplayModeChoice.choose(VideoOutputFactory.request(screen.mode), from: connector.modes) {
                    case .success(let choice): mode = choice.mode
                    case .failure(let failure): problem = "\(failure)"
                    }
                }
                return Line(screen: screen, card: card.path, isConnected: connector.isConnected, mode: mode, problem: problem)
            }
            return Line(screen: screen, card: nil, isConnected: false, mode: nil, problem: "no card has connector \(screen.connector)")
        }
    }

    /// `content` is `plays 2 items` or `mirrors left`.
    static func content(_ screen: ScreenConfiguration) -> String {
        if let mirrored = screen.mirrored { return "mirrors \(mirrored)" }
        let count = screen.playlist?.items.count ?? 0
        return "plays \(count) item\(count == 1 ? "" : "s")"
    }

    static func text(_ lines: [Line]) -> String {
        var text = "Screens (displays:)\n"
        for line in lines {
            let mode = line.mode.map { "\($0)" } ?? "no mode: \(line.problem ?? "?")"
            text += "  \(line.screen.name): \(line.screen.connector)\(line.card.map { " on \($0)" } ?? ""), \(mode), \(content(line.screen))\n"
        }
        return text
    }

    static func object(_ lines: [Line]) -> [[String: Any]] {
        lines.map { line in
            var fields: [String: Any] = ["name": line.screen.name, "connector": line.screen.connector, "connected": line.isConnected]
            if let card = line.card { fields["card"] = card }
            if let mode = line.mode { fields["mode"] = "\(mode)" }
            if let problem = line.problem { fields["problem"] = problem }
            if let mirrored = line.screen.mirrored { fields["mirrors"] = mirrored } else { fields["items"] = line.screen.playlist?.items.count ?? 0 }
            return fields
        }
    }
}
