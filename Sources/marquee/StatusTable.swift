import Foundation
import MarqueeCore
import MarqueeSession

/// `marquee ctl status` for people: the media controller's labels and the settings, one per line.
enum StatusTable {
    static func text(_ status: StatusDocument) -> String {
        var rows: [(String, String)] = []
        rows.append(("state", "\(status.state.rawValue) (\(status.loadState.rawValue))"))
        if status.display == "off" { rows.append(("display", "off")) }
        if let schedule = status.schedule {
            rows.append(("daypart", "\(schedule.daypart ?? "nothing scheduled")\(schedule.nextChange.map { " (next change \($0))" } ?? "")"))
        }
        if let item = status.item {
            let title = item.title ?? String(item.url.split(separator: "/").last ?? "")
            rows.append(("item", "\(item.index + 1)/\(status.itemCount) \(title) (\(item.url))"))
            rows.append(("position", "\(item.positionLabel) / \(item.durationLabel)  \(item.remainingLabel)"))
        } else {
            rows.append(("item", "-/\(status.itemCount)"))
        }
        if status.rate != 1 {
            let sound = status.soundAtRate == .stretched ? "sound time-stretched" : "sound muted"
            rows.append(("rate", String(format: "%gx (%@)", status.rate, sound)))
        }
        rows.append(("repeat", status.repeatMode.rawValue))
        rows.append(("scaling", status.scaling.rawValue))
        let volume = Int((status.volume * 100).rounded())
        rows.append(("volume", "\(volume) %\(status.muted ? " (muted)" : "")"))
        rows.append(("at item end", "\(status.actionAtItemEnd.rawValue)\(status.pauseAfterCurrentItem ? " (pause after this item)" : "")"))
        if let output = status.output {
            rows.append(("output", "\(output.kind): \(output.display ?? "\(output.width)x\(output.height)")"))
        }
        for screen in status.screens ?? [] {
            rows.append(("screen", Self.screenRow(screen)))
        }
        if let audio = status.audio { rows.append(("audio", audio.device)) }
        if let input = status.input {
            rows.append(("input", input.devices.isEmpty ? "none" : input.devices.map { "\($0.name) (\($0.path))" }.joined(separator: ", ")))
        }
        rows.append(("frames", "\(status.framesPresented) shown, \(status.framesDropped) dropped"))
        rows.append(("uptime", String(format: "%.1f s", status.uptime)))
        if let error = status.lastError { rows.append(("last error", error)) }
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 + "\n" }.joined()
    }
}
