/// `control:`: the control socket (`marquee ctl`, scripts).
public struct ControlConfiguration: Sendable, Equatable, Codable {
    public enum Socket: Sendable, Equatable, Codable {
        /// systemd's runtime directory, else /run/marquee, else $XDG_RUNTIME_DIR.
        case automatic
        case none
        case path(String)
    }

    public var socket: Socket

    public init(socket: Socket = .automatic) {
        self.socket = socket
    }
}
