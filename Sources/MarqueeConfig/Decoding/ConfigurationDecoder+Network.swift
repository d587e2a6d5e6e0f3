import Yams

extension ConfigurationDecoder {
    static let networkKeys = ["readAhead"]

    mutating func decodeNetwork(_ node: Node) -> NetworkConfiguration {
        var network = NetworkConfiguration()
        guard let fields = fields(of: node, in: "network", allowed: Self.networkKeys) else { return network }
        if let node = fields["readAhead"]?.value, let seconds = number(node) {
            if NetworkConfiguration.readAheadRange.contains(seconds) {
                network.readAhead = seconds
            } else {
                log.error(at: SourcePosition(of: node),
                          "readAhead \(Self.plain(seconds)) s is out of range (expected 0 to 600 seconds)")
            }
        }
        return network
    }
}
