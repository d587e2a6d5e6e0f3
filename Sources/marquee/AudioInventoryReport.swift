import Foundation
import MarqueeALSA
import MarqueeSession

/// `marquee probe` without media: the sound cards and the PCM names that can play, for an operator
/// choosing `audio.device` or `--audio alsa:PCM`.
enum AudioInventoryReport {
    static func text(cards: [Result<ALSACardInfo, ALSAError>], pcms: Result<[ALSAPCMHint], ALSAError>) -> String {
        var lines: [String] = []
        if cards.isEmpty { lines.append("audio: no sound cards (/proc/asound/cards lists none)") }
        for card in cards {
            switch card {
            case .failure(let error):
                lines.append("sound card: \(error)")
            case .success(let info):
                lines.append("sound card \(info.index) \(info.id)  \(info.name)  (\(info.longName))")
                for device in info.playbackDevices {
                    lines.append("  playback hw:\(info.index),\(device.device)  \(device.id)  \(device.name)")
                }
            }
        }
        switch pcms {
        case .failure(let error):
            lines.append("pcms: \(error)")
        case .success(let hints):
            lines.append("pcms \(hints.map(\.name).joined(separator: " "))")
        }
        return lines.joined(separator: "\n")
    }

    static func object(cards: [Result<ALSACardInfo, ALSAError>], pcms: Result<[ALSAPCMHint], ALSAError>) -> [String: Any] {
        let cardObjects: [[String: Any]] = cards.map { card in
            switch card {
            case .failure(let error):
                return ["error": error.description]
            case .success(let info):
                return ["index": info.index, "id": info.id, "name": info.name, "longName": info.longName,
                        "playback": info.playbackDevices.map { ["device": $0.device, "id": $0.id, "name": $0.name] as [String: Any] }]
            }
        }
        var object: [String: Any] = ["cards": cardObjects]
        switch pcms {
        case .failure(let error):
            object["pcms"] = NSNull()
            object["pcmsError"] = error.description
        case .success(let hints):
            object["pcms"] = hints.map { ["name": $0.name, "description": $0.description] }
        }
        return object
    }
}
