import Glibc
import MarqueeCore

/// The control socket's transport: a Unix stream socket where each client sends one request per
/// line and reads one reply or event per line, as mpv's JSON IPC does. What the lines mean is the
/// protocol layer's business; this type only moves lines.
///
/// It has no thread of its own: it is a few sources on the control plane's `ControlPlaneLoop` it is
/// given (`ControlSocketSources`): the listener, one source per client and a timer for the
/// deadlines. It never blocks on a client: client fds are non-blocking, a reply is written as far
/// as the kernel takes it and the rest waits for the socket to be writable, and what a client sends
/// is cut into lines as it comes. `send` only appends to the client's queue and, when the loop is
/// not already coming back for it, asks the loop to flush it (`perform`), so any thread (the
/// player's, an event delivery thread, a callback) can call it without waiting on a client. A
/// client that does not read its replies is cut off once `maxQueuedBytes` wait for it, rather than
/// held in memory without bound.
///
/// The callbacks run on the loop's thread, one at a time and without any lock held: like every
/// handler there they must not block, and may call `send`, `sendAndClose`, `disconnect` and `stop`.
public final class ControlSocketServer: @unchecked Sendable {
    public struct Limits: Sendable {
        /// A longer line is reported as `.lineTooLong` and skipped.
        public var maxLineBytes = 64 * 1024
        /// Replies and events waiting for one client; a screenshot as base64 can be a few MB.
        public var maxQueuedBytes = 16 * 1024 * 1024
        /// A connection past it is accepted, told `{"ok":false,"error":"too many clients (256)"}` and closed.
        public var maxClients = 256
        /// A client that shuts down its writing side (as `socat` and `nc -N` do at the end of their
        /// input) still gets the replies to what it sent: its connection stays open until it hangs
        /// up, or until it has read nothing for this many seconds.
        public var halfClosedGrace: Double = 2
        public init() {}
    }

    public typealias Log = @Sendable (ControlSocketLogLevel, String) -> Void

    public let path: String
    private let loop: ControlPlaneLoop
    /// Owned by this server until `start` hands it to the loop (which closes it once the listener's
    /// source has ended); closed by `stop`/deinit when it never started. Internal for the tests
    /// that check it is closed.
    let listener: Int32
    /// The socket file this server created, so `stop` never unlinks one a newer player put there.
    private let socketFile: (device: UInt64, inode: UInt64)?
    private let shared: ControlSocketShared
    private let sources: ControlSocketSources

    /// Binds and listens at `path`, for clients served on `loop`'s thread once `start` is called.
    /// The socket file gets mode 0660 and the process's owner and group; it is never more open than
    /// that, even for an instant (it is created at most 0600, and nobody can connect before
    /// `listen`, which comes after the chmod). A stale socket file left by a crashed player (nothing
    /// accepts on it) is replaced; a live one throws, as does a path whose folder is missing or not
    /// writable. Clients that connect before `start` wait in the backlog.
    public init(path: String, loop: ControlPlaneLoop, limits: Limits = Limits(), roles: SocketRoles = SocketRoles(),
                log: @escaping Log,
                onConnect: @escaping @Sendable (ControlPeer) -> Void = { _ in },
                onInput: @escaping @Sendable (ControlPeer, ControlSocketInput) -> Void,
                onDisconnect: @escaping @Sendable (ControlPeer) -> Void = { _ in }) throws {
        precondition(limits.maxLineBytes > 0 && limits.maxQueuedBytes > 0 && limits.maxClients > 0, "limits must be positive")
        self.path = path
        self.loop = loop

        let length = path.utf8.count
        guard length > 0, length <= UnixSocket.maxPathBytes else {
            throw ControlSocketError("\(path): path too long for a Unix socket (\(length) bytes, at most \(UnixSocket.maxPathBytes))")
        }
        try Self.clearStaleSocket(at: path)

        let listener = UnixSocket.stream(nonBlocking: true)
        guard listener >= 0 else { throw ControlSocketError("\(path): cannot create a socket (\(String(cString: strerror(errno))))", code: errno) }
        func fail(_ what: String, unlinking: Bool) -> ControlSocketError {
            let code = errno
            if unlinking { unlink(path) }
            Glibc.close(listener)
            return ControlSocketError("\(path): \(what) (\(String(cString: strerror(code))))", code: code)
        }
        // Linux creates the socket file with the socket inode's mode less the umask: at most 0600 here.
        _ = fchmod(listener, 0o600)
        let bound = UnixSocket.withAddress(path) { bind(listener, $0, $1) } ?? -1
        guard bound == 0 else { throw fail("cannot bind", unlinking: false) }
        // By path, but never through a symlink someone swapped in.
        guard fchmodat(AT_FDCWD, path, 0o660, AT_SYMLINK_NOFOLLOW) == 0 else { throw fail("cannot set its mode to 0660", unlinking: true) }
        var status = stat()
        socketFile = lstat(path, &status) == 0 ? (UInt64(status.st_dev), UInt64(status.st_ino)) : nil
        guard listen(listener, SOMAXCONN) == 0 else { throw fail("cannot listen", unlinking: true) }

        self.listener = listener
        let shared = ControlSocketShared(maxQueuedBytes: limits.maxQueuedBytes)
        self.shared = shared
        do {
            sources = try ControlSocketSources(
                loop: loop, listener: listener, path: path, limits: limits, roles: roles, shared: shared,
                callbacks: .init(log: log, onConnect: onConnect, onInput: onInput, onDisconnect: onDisconnect))
        } catch {
            unlink(path)
            Glibc.close(listener)
            throw error
        }
        log(.info, "control: listening on \(path)")
    }

    deinit {
        // Started, its sources live on until the loop or `stop` ends them, as a thread would.
        if shared.phase == .ready {
            sources.endTimer(waiting: !loop.isOnLoopThread)
            Glibc.close(listener)
            unlinkSocketFile()
        }
    }

    /// Adds the listener to the loop (its clients and the timer follow); a second call does nothing.
    /// The loop may be started before or after.
    public func start() {
        guard shared.begin() else { return }
        sources.start()
    }

    /// Queues `line` and "\n" for client `peer`; returns at once. Ignored when that client is gone.
    /// If the client's queue would pass `maxQueuedBytes`, the queue is dropped and the client
    /// disconnected, with a warning.
    public func send(_ line: String, to peer: Int) {
        enqueue(line, to: peer, closing: false)
    }

    /// Like `send`, then closes the connection once that line is written. Nothing the client sends
    /// afterwards is passed on.
    public func sendAndClose(_ line: String, to peer: Int) {
        enqueue(line, to: peer, closing: true)
    }

    /// Closes the connection to `peer` without writing what still waits for it.
    public func disconnect(_ peer: Int) {
        if shared.disconnect(peer) { flush(peer) }
    }

    /// Connections open now (those being closed included, until the loop has closed them).
    public var clientCount: Int {
        shared.count
    }

    /// Ends every source of this server: closes every client (writing first what is queued for it,
    /// as far as the kernel takes it at once) and the listener, and removes the socket file. From
    /// another thread it waits until the loop has done so, so no callback runs once it returns (a
    /// callback that blocks is waited for); from a callback on the loop's thread it does it there and
    /// then. Idempotent; a server never started only closes its listener.
    public func stop() {
        let (phase, listenerSource) = shared.beginStopping()
        // Also after the listener failed or the loop stopped, which ended the sources already.
        unlinkSocketFile()
        switch phase {
        case .ready:
            sources.endTimer(waiting: !loop.isOnLoopThread)
            Glibc.close(listener)
        case .running:
            // The listener's ending closes the clients and ends the timer (see ControlSocketSources).
            if let listenerSource { loop.remove(listenerSource, waiting: !loop.isOnLoopThread) }
        case .stopping, .finished:
            break
        }
    }

    // MARK: - Any thread

    private func enqueue(_ line: String, to peer: Int, closing: Bool) {
        if shared.enqueue(line, to: peer, closing: closing) { flush(peer) }
    }

    /// Asks the loop to act on what was queued or decided for `peer`; never waits.
    private func flush(_ peer: Int) {
        loop.perform { [sources] in sources.flush(peer) }
    }

    private func unlinkSocketFile() {
        guard let socketFile else { return }
        var status = stat()
        guard lstat(path, &status) == 0, UInt64(status.st_dev) == socketFile.device, UInt64(status.st_ino) == socketFile.inode else { return }
        unlink(path)
    }

    /// Removes a socket file nobody accepts on; throws if a player answers there, or if the path is
    /// something other than a socket (never deleted: it may be someone's file).
    private static func clearStaleSocket(at path: String) throws {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw ControlSocketError("\(path): something other than a socket is there", code: EEXIST)
        }
        let probe = UnixSocket.stream(nonBlocking: true)
        guard probe >= 0 else { throw ControlSocketError("\(path): cannot create a socket (\(String(cString: strerror(errno))))", code: errno) }
        let result = UnixSocket.connect(probe, to: path)
        Glibc.close(probe)
        switch result {
        case 0, EAGAIN:  // EAGAIN: alive, its backlog full
            throw ControlSocketError("\(path): another player is listening there", code: EADDRINUSE)
        case ECONNREFUSED:
            guard unlink(path) == 0 || errno == ENOENT else {
                throw ControlSocketError("\(path): cannot remove the stale socket there (\(String(cString: strerror(errno))))", code: errno)
            }
        default:
            throw ControlSocketError("\(path): cannot tell whether a player is listening there (\(String(cString: strerror(result))))", code: result)
        }
    }
}
