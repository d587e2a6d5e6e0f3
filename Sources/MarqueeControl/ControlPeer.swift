import MarqueeCore
import Synchronization

/// One client of the control vocabulary, as the protocol layer sees it: a number that names it in
/// replies and logs, and who is at the other end. For a connection to the control socket that is
/// the kernel's `SO_PEERCRED`, taken when it connected, so it cannot be forged by what the client
/// sends; another transport (MQTT) names its own source.
public struct ControlPeer: Sendable, Hashable, CustomStringConvertible {
    /// 1, 2, 3 … one per connection, never reused within a process (even across servers and
    /// transports), so a late reply meant for a closed connection can never reach a newer one.
    public let id: Int
    public let uid: UInt32
    public let gid: UInt32
    public let pid: Int32
    /// What its commands are recorded as coming from.
    public let source: CommandSource
    /// What it may ask for (each command declares the role it needs).
    public let role: ControlRole

    /// A client of the control socket: `admin`, since the socket's mode already limits who may
    /// connect to its owner and group.
    public init(id: Int, uid: UInt32, gid: UInt32, pid: Int32, role: ControlRole = .admin) {
        self.id = id
        self.uid = uid
        self.gid = gid
        self.pid = pid
        self.source = .control(client: id, uid: uid, pid: pid)
        self.role = role
    }

    /// A client of another transport, its commands recorded as from `source`, granted `role`.
    public init(id: Int, source: CommandSource, role: ControlRole) {
        self.id = id
        self.uid = 0
        self.gid = 0
        self.pid = 0
        self.source = source
        self.role = role
    }

    private static let nextID = Atomic<Int>(1)

    /// A number no other peer of this process has had.
    public static func allocateID() -> Int {
        nextID.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// `client 3 (uid 1000, pid 4242)`, or the source of another transport's peer (`mqtt (…)`).
    public var description: String {
        if case .control = source { return "client \(id) (uid \(uid), pid \(pid))" }
        return source.description
    }

    public static func == (lhs: ControlPeer, rhs: ControlPeer) -> Bool {
        lhs.id == rhs.id && lhs.uid == rhs.uid && lhs.gid == rhs.gid && lhs.pid == rhs.pid && lhs.source == rhs.source && lhs.role == rhs.role
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }
}
