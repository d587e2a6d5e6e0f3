/// `log:`: how much the journal hears. `--log-level` overrides it.
public struct LogConfiguration: Sendable, Equatable, Codable {
    /// swift-log's levels, by the names operators write.
    public enum Level: String, Sendable, Codable, CaseIterable {
        case trace, debug, info, notice, warning, error, critical
    }

    public var level: Level

    public init(level: Level = .info) {
        self.level = level
    }
}
