import MarqueeCore
import Yams

extension ConfigurationDecoder {
    static let metricsKeys = ["listen"]

    /// `metrics: {listen: 127.0.0.1:9150}`; an empty section listens on the standard address.
    mutating func decodeMetrics(_ node: Node) -> MetricsConfiguration {
        var metrics = MetricsConfiguration()
        guard let fields = fields(of: node, in: "metrics", allowed: Self.metricsKeys) else { return metrics }
        if let node = fields["listen"]?.value, let text = string(node, expected: "an address such as 127.0.0.1:9150") {
            switch MetricsListenAddress.parse(text) {
            case .success(let address): metrics.listen = address
            case .failure(let problem): log.error(at: SourcePosition(of: node), problem.message)
            }
        }
        return metrics
    }
}
