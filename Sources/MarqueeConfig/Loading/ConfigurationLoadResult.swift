/// The outcome of reading one config file: the configuration when it has no errors, and every
/// problem found along the way in file order.
public struct ConfigurationLoadResult: Sendable {
    /// Nil when any diagnostic is an error; warnings alone still yield a configuration.
    public let configuration: MarqueeConfiguration?
    public let diagnostics: [Diagnostic]

    public init(configuration: MarqueeConfiguration?, diagnostics: [Diagnostic]) {
        self.configuration = configuration
        self.diagnostics = diagnostics
    }

    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}
