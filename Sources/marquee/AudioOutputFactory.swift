import Foundation
import Logging
import MarqueeALSA
import MarqueeConfig
import MarqueeCore
import MarqueePlayer
import MarqueeSession

/// Turns `--audio` and the config's `audio:` section into the output the player writes to.
enum AudioOutputFactory {
    /// `AudioDevice`: the output, whether it plays in real time (video follows its clock), the
    /// ALSA PCM's name or `null`, and whether a sound card's clock plays it (not, say, ALSA's
    /// `null` plugin: frame-locked playback resamples the sound onto the wall only when it does).
    typealias Made = AudioDevice

    static func make(choice: AudioChoice, configuration: AudioConfiguration, virtualClock: Bool, logger: Logger) -> Made {
        var device: String
        switch choice {
        case .null:
            return Made(output: NullAudioOutput(format: .standard), isDevice: false)
        case .auto:
            if virtualClock {
                logger.info("audio: null (--clock fast plays faster than any device)")
                return Made(output: NullAudioOutput(format: .standard), isDevice: false)
            }
            guard ALSAInventory.hasSoundCard else {
                logger.info("audio: null (no sound card: /proc/asound/cards lists none)")
                return Made(output: NullAudioOutput(format: .standard), isDevice: false)
            }
            device = configuration.device
        case .alsa(let name):
            device = name ?? configuration.device
        }
        let options = ALSAOutputOptions(device: device, bufferTime: time(configuration.bufferTime),
                                        periodTime: time(configuration.periodTime))
        let output = ALSAOutput(options: options, log: { logger.notice("\($0)") })
        // A device missing at start is taken to keep time: it will be a card when it comes.
        return Made(output: output, isDevice: true, deviceName: device, keepsTime: output.setup.map { $0.soundCard != nil } ?? true)
    }

    /// Seconds from the config to the microsecond, which is what ALSA takes.
    private static func time(_ seconds: Double) -> MediaTime {
        MediaTime(Int64((seconds * 1_000_000).rounded()), per: 1_000_000)
    }
}
