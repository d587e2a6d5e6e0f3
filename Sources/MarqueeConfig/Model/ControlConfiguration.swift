import MarqueeCore

/// `control:`: the control socket (`marquee ctl`, scripts).
public struct ControlConfiguration: Sendable, Equatable, Codable {
    public enum Socket: Sendable, Equatable, Codable {
        /// systemd's runtime directory, else /run/marquee, else $XDG_RUNTIME_DIR.
        case automatic
        case none
        case path(String)
    }

    public var socket: Socket
    /// `control.roles`: what each socket client may do, by user or group (none: all `admin`).
    public var roles: SocketRoles

    public init(socket: Socket = .automatic, roles: SocketRoles = SocketRoles()) {
        self.socket = socket
        self.roles = roles
    }
}
