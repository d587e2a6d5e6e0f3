/// `metrics:`: Prometheus's `/metrics` over HTTP. No section: no metrics server.
public struct MetricsConfiguration: Sendable, Equatable, Codable {
    /// `listen`: where the server binds; 127.0.0.1:9150 unless the operator names another address.
    public var listen: MetricsListenAddress

    public init(listen: MetricsListenAddress = .standard) {
        self.listen = listen
    }
}
