import Yams

extension ConfigurationDecoder {
    static let audioKeys = ["device", "volume"]

    mutating func decodeAudio(_ node: Node) -> AudioConfiguration {
        var audio = AudioConfiguration()
        guard let fields = fields(of: node, in: "audio", allowed: Self.audioKeys) else { return audio }
        if let node = fields["device"]?.value, let device = string(node, expected: "an ALSA PCM name") {
            audio.device = device
        }
        if let node = fields["volume"]?.value, let volume = number(node) {
            if AudioConfiguration.volumeRange.contains(volume) {
                audio.volume = volume
            } else {
                log.error(at: SourcePosition(of: node), "volume \(Self.plain(volume)) is out of range (expected 0 to 1)")
            }
        }
        return audio
    }

    /// `1.5`, `2` rather than `2.0`.
    private static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
