/// One connection to the control socket, as the protocol layer sees it: a number that names it in
/// replies and logs, and who is at the other end (the kernel's `SO_PEERCRED`, taken when it
/// connected, so it cannot be forged by what the client sends).
public struct ControlPeer: Sendable, Hashable, CustomStringConvertible {
    /// 1, 2, 3 … one per connection, never reused within a process (even across servers), so a
    /// late reply meant for a closed connection can never reach a newer one.
    public let id: Int
    public let uid: UInt32
    public let gid: UInt32
    public let pid: Int32

    public init(id: Int, uid: UInt32, gid: UInt32, pid: Int32) {
        self.id = id
        self.uid = uid
        self.gid = gid
        self.pid = pid
    }

    /// `client 3 (uid 1000, pid 4242)`
    public var description: String { "client \(id) (uid \(uid), pid \(pid))" }
}
