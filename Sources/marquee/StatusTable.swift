import Foundation

/// `marquee ctl status` for people: the media controller's labels and the settings, one per line.
enum StatusTable {
    static func text(_ status: [String: Any]) -> String {
        var rows: [(String, String)] = []
        let state = status["state"] as? String ?? "?"
        rows.append(("state", "\(state) (\(status["loadState"] as? String ?? "?"))"))
        if status["display"] as? String == "off" { rows.append(("display", "off")) }
        if let schedule = status["schedule"] as? [String: Any] {
            let daypart = schedule["daypart"] as? String ?? "nothing scheduled"
            rows.append(("daypart", "\(daypart)\((schedule["nextChange"] as? String).map { " (next change \($0))" } ?? "")"))
        }
        let count = status["itemCount"] as? Int ?? 0
        if let item = status["item"] as? [String: Any] {
            let index = item["index"] as? Int ?? 0
            let url = item["url"] as? String ?? ""
            let title = item["title"] as? String ?? String(url.split(separator: "/").last ?? "")
            rows.append(("item", "\(index + 1)/\(count) \(title) (\(url))"))
            rows.append(("position", "\(item["positionLabel"] as? String ?? "--:--") / \(item["durationLabel"] as? String ?? "--:--")  \(item["remainingLabel"] as? String ?? "--:--")"))
        } else {
            rows.append(("item", "-/\(count)"))
        }
        if let rate = status["rate"] as? Double, rate != 1 {
            let sound = status["soundAtRate"] as? String == "stretched" ? "sound time-stretched" : "sound muted"
            rows.append(("rate", String(format: "%gx (%@)", rate, sound)))
        }
        rows.append(("repeat", status["repeat"] as? String ?? "?"))
        rows.append(("scaling", status["scaling"] as? String ?? "?"))
        let volume = Int(((status["volume"] as? Double ?? 0) * 100).rounded())
        rows.append(("volume", "\(volume) %\(status["muted"] as? Bool == true ? " (muted)" : "")"))
        rows.append(("at item end", "\(status["actionAtItemEnd"] as? String ?? "?")\(status["pauseAfterCurrentItem"] as? Bool == true ? " (pause after this item)" : "")"))
        if let output = status["output"] as? [String: Any] {
            let kind = output["kind"] as? String ?? "?"
            let detail = output["display"] as? String ?? "\(output["width"] ?? "?")x\(output["height"] ?? "?")"
            rows.append(("output", "\(kind): \(detail)"))
        }
        for screen in status["screens"] as? [[String: Any]] ?? [] {
            rows.append(("screen", Self.screenRow(screen)))
        }
        if let audio = status["audio"] as? [String: Any] { rows.append(("audio", audio["device"] as? String ?? "?")) }
        if let input = status["input"] as? [String: Any], let devices = input["devices"] as? [[String: Any]] {
            rows.append(("input", devices.isEmpty ? "none" : devices.map { "\($0["name"] ?? "?") (\($0["path"] ?? "?"))" }.joined(separator: ", ")))
        }
        rows.append(("frames", "\(status["framesPresented"] as? Int ?? 0) shown, \(status["framesDropped"] as? Int ?? 0) dropped"))
        rows.append(("uptime", String(format: "%.1f s", status["uptime"] as? Double ?? 0)))
        if let error = status["lastError"] as? String { rows.append(("last error", error)) }
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 + "\n" }.joined()
    }
}
