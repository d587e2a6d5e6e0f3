import Yams

extension ConfigurationDecoder {
    static let audioKeys = ["device", "volume", "bufferTime", "periodTime", "screen"]

    mutating func decodeAudio(_ node: Node) -> AudioConfiguration {
        var audio = AudioConfiguration()
        guard let fields = fields(of: node, in: "audio", allowed: Self.audioKeys) else { return audio }
        if let node = fields["device"]?.value, let device = string(node, expected: "an ALSA PCM name") {
            audio.device = device
        }
        // Checked against `displays:` once the screens are read (ConfigurationDecoder+Screens).
        if let node = fields["screen"]?.value, let screen = string(node, expected: "a screen name from 'displays'") {
            audio.screen = screen
        }
        if let node = fields["volume"]?.value, let volume = number(node) {
            if AudioConfiguration.volumeRange.contains(volume) {
                audio.volume = volume
            } else {
                log.error(at: SourcePosition(of: node), "volume \(Self.plain(volume)) is out of range (expected 0 to 1)")
            }
        }
        if let node = fields["bufferTime"]?.value, let time = number(node) {
            if AudioConfiguration.bufferTimeRange.contains(time) {
                audio.bufferTime = time
            } else {
                log.error(at: SourcePosition(of: node), "bufferTime \(Self.plain(time)) s is out of range (expected 0.005 to 2 seconds)")
            }
        }
        if let node = fields["periodTime"]?.value, let time = number(node) {
            if time >= AudioConfiguration.minimumPeriodTime && time * 2 <= audio.bufferTime {
                audio.periodTime = time
            } else {
                log.error(at: SourcePosition(of: node),
                          "periodTime \(Self.plain(time)) s is out of range (expected 0.001 s to half the bufferTime, \(Self.plain(audio.bufferTime / 2)) s)")
            }
        } else if audio.periodTime * 2 > audio.bufferTime {
            // A short buffer without a period: a quarter of it, like the defaults.
            audio.periodTime = audio.bufferTime / 4
        }
        return audio
    }

    /// `1.5`, `2` rather than `2.0`.
    static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
