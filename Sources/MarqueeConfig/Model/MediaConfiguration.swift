/// `media:`: where the player may read configs and local media from when a control client
/// (`load` over the socket or MQTT) names them.
public struct MediaConfiguration: Sendable, Equatable, Codable {
    /// `roots`: folders (resolved against the config's folder); nil: the config's folder and the
    /// cache's.
    public var roots: [String]?

    public init(roots: [String]? = nil) {
        self.roots = roots
    }
}
