import Foundation

/// `--audio auto|alsa[:PCM]|null`.
package enum AudioChoice: Equatable, Sendable {
    /// ALSA on the config's device when the machine has a sound card, else null.
    case auto
    /// ALSA on this PCM, or the config's device (`default` unless set) when nil.
    case alsa(String?)
    /// Decoded, converted and trimmed, then dropped on an ideal clock.
    case null

    package init?(argument: String) {
        switch argument {
        case "auto": self = .auto
        case "null": self = .null
        case "alsa": self = .alsa(nil)
        default:
            guard argument.hasPrefix("alsa:"), argument.count > 5 else { return nil }
            self = .alsa(String(argument.dropFirst(5)))
        }
    }
}
