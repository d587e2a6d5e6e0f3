/// The outcome of reading one config file: the configuration when it has no errors, and every
/// problem found along the way in file order.
public struct ConfigurationLoadResult: Sendable {
    /// Nil when any diagnostic is an error; warnings alone still yield a configuration.
    public let configuration: MarqueeConfiguration?
    public let diagnostics: [Diagnostic]
    /// The text read as a config at all: a playlist (M3U), or a mapping with at least one of the
    /// config's sections. A file that is not (a key file, /proc/self/maps, a shadow file) must not
    /// have its diagnostics shown to a remote client: they quote its text.
    public let isConfig: Bool

    public init(configuration: MarqueeConfiguration?, diagnostics: [Diagnostic], isConfig: Bool = true) {
        self.configuration = configuration
        self.diagnostics = diagnostics
        self.isConfig = isConfig
    }

    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}
