import Foundation
import Glibc
import MarqueeCore
import Synchronization

/// The control socket's transport: a Unix stream socket where each client sends one request per
/// line and reads one reply or event per line, as mpv's JSON IPC does. What the lines mean is the
/// protocol layer's business; this type only moves lines.
///
/// One thread of its own ("marquee.control") poll()s the listener, every client and a wake-up
/// socket pair. It never blocks on a client: client fds are non-blocking, a reply is written as far
/// as the kernel takes it and the rest waits for POLLOUT, and what a client sends is cut into lines
/// as it comes. `send` only appends to the client's queue and wakes the thread, so any thread
/// (the player's, an event delivery thread, a callback) can call it without waiting on a client.
/// A client that does not read its replies is cut off once `maxQueuedBytes` wait for it, rather
/// than held in memory without bound.
///
/// The callbacks run on the server thread, one at a time and without any lock held: they must not
/// block, and may call `send`, `sendAndClose` and `disconnect`.
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
    private let limits: Limits
    private let log: Log
    /// `control.roles`: what each client may do, from its peer credentials.
    private let roles: SocketRoles
    private let onConnect: @Sendable (ControlPeer) -> Void
    private let onInput: @Sendable (ControlPeer, ControlSocketInput) -> Void
    private let onDisconnect: @Sendable (ControlPeer) -> Void

    /// Owned by this server; used only by the server thread once it runs, closed by it when it ends
    /// (or by `stop`/deinit when it never started).
    private let listener: Int32
    private let wakeReader: Int32
    /// The socket file this server created, so `stop` never unlinks one a newer player put there.
    private let socketFile: (device: UInt64, inode: UInt64)?
    private let state: Mutex<Shared>
    private let finished = DispatchSemaphore(value: 0)

    private enum Phase { case ready, running, stopping, finished }

    /// Why the thread is to close a client, set by another thread.
    private enum Verdict {
        case overflow
        case requested
    }

    /// What other threads hand the server thread for one client.
    private struct Outbox {
        let peer: ControlPeer
        var queued: [UInt8] = []
        /// Bytes the thread took out of `queued` and has not written yet; they count against the limit.
        var inFlight = 0
        var closeWhenFlushed = false
        var verdict: Verdict?
    }

    private struct Shared {
        var phase = Phase.ready
        var outboxes: [Int: Outbox] = [:]
        /// The writing end of the wake-up pair; -1 once closed.
        var wakeWriter: Int32
        /// The server thread, so a `stop` from one of its callbacks does not wait for itself.
        var thread: pthread_t?

        func wake() {
            guard wakeWriter >= 0 else { return }
            var byte: UInt8 = 1
            // Non-blocking: when the pair is full the thread has wake-ups enough already.
            _ = Glibc.send(wakeWriter, &byte, 1, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
        }
    }

    /// Binds and listens at `path`. The socket file gets mode 0660 and the process's owner and
    /// group; it is never more open than that, even for an instant (it is created at most 0600,
    /// and nobody can connect before `listen`, which comes after the chmod). A stale socket file left
    /// by a crashed player (nothing accepts on it) is replaced; a live one throws, as does a path
    /// whose folder is missing or not writable. Clients that connect before `start` wait in the
    /// backlog.
    public init(path: String, limits: Limits = Limits(), roles: SocketRoles = SocketRoles(),
                log: @escaping Log,
                onConnect: @escaping @Sendable (ControlPeer) -> Void = { _ in },
                onInput: @escaping @Sendable (ControlPeer, ControlSocketInput) -> Void,
                onDisconnect: @escaping @Sendable (ControlPeer) -> Void = { _ in }) throws {
        precondition(limits.maxLineBytes > 0 && limits.maxQueuedBytes > 0 && limits.maxClients > 0, "limits must be positive")
        self.path = path
        self.limits = limits
        self.roles = roles
        self.log = log
        self.onConnect = onConnect
        self.onInput = onInput
        self.onDisconnect = onDisconnect

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

        var pair: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        guard socketpair(AF_UNIX, type, 0, &pair) == 0 else { throw fail("cannot create the wake-up socket pair", unlinking: true) }
        self.listener = listener
        self.wakeReader = pair[0]
        self.state = Mutex(Shared(wakeWriter: pair[1]))
        log(.info, "control: listening on \(path)")
    }

    deinit {
        // Only reached when the thread never ran (a running thread keeps the server alive).
        let writer = state.withLock { shared -> Int32 in
            let writer = shared.wakeWriter
            shared.wakeWriter = -1
            return shared.phase == .ready ? writer : -1
        }
        if writer >= 0 {
            closeOwnDescriptors(wakeWriter: writer)
            unlinkSocketFile()
        }
    }

    /// Starts the server thread; a second call does nothing.
    public func start() {
        let starting = state.withLock { shared -> Bool in
            guard shared.phase == .ready else { return false }
            shared.phase = .running
            return true
        }
        guard starting else { return }
        let thread = Thread { [self] in run() }
        thread.name = "marquee.control"
        thread.start()
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
        state.withLock { shared in
            guard shared.outboxes[peer] != nil, shared.outboxes[peer]?.verdict == nil else { return }
            shared.outboxes[peer]?.verdict = .requested
            shared.outboxes[peer]?.queued = []
            shared.wake()
        }
    }

    /// Connections open now (those being closed included, until the thread has closed them).
    public var clientCount: Int {
        state.withLock { $0.outboxes.count }
    }

    /// Closes every client and the listener, removes the socket file and ends the thread. Waits for
    /// the thread at most about a second (a callback that blocks is not waited for); called from a
    /// callback, returns at once and the thread ends when the callback returns.
    public func stop() {
        let phase = state.withLock { shared -> Phase in
            let phase = shared.phase
            switch phase {
            case .ready: shared.phase = .finished
            case .running:
                shared.phase = .stopping
                shared.wake()
            case .stopping, .finished: break
            }
            return phase
        }
        switch phase {
        case .ready:
            let writer = state.withLock { shared -> Int32 in
                defer { shared.wakeWriter = -1 }
                return shared.wakeWriter
            }
            closeOwnDescriptors(wakeWriter: writer)
            unlinkSocketFile()
        case .running:
            unlinkSocketFile()
            let onServerThread = state.withLock { $0.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
            if onServerThread { return }  // the loop ends when the callback returns
            if finished.wait(timeout: .now() + 1) == .timedOut {
                log(.warning, "control: the control thread did not end within 1 s; it ends on its own")
            }
        case .stopping, .finished:
            break
        }
    }

    // MARK: - Any thread

    private func enqueue(_ line: String, to peer: Int, closing: Bool) {
        let limit = limits.maxQueuedBytes
        state.withLock { shared in
            guard let outbox = shared.outboxes[peer], outbox.verdict == nil, !outbox.closeWhenFlushed else { return }
            if outbox.queued.count + outbox.inFlight + line.utf8.count + 1 > limit {
                // Logged by the thread when it closes the connection: one line per disconnect.
                shared.outboxes[peer]?.queued = []
                shared.outboxes[peer]?.verdict = .overflow
                shared.wake()
                return
            }
            // A queue that was not empty has already woken the thread, which has yet to take it.
            let needsWaking = outbox.queued.isEmpty || closing
            shared.outboxes[peer]?.queued.append(contentsOf: line.utf8)
            shared.outboxes[peer]?.queued.append(UInt8(ascii: "\n"))
            shared.outboxes[peer]?.closeWhenFlushed = closing
            if needsWaking { shared.wake() }
        }
    }

    private func closeOwnDescriptors(wakeWriter: Int32) {
        Glibc.close(listener)
        Glibc.close(wakeReader)
        if wakeWriter >= 0 { Glibc.close(wakeWriter) }
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

// MARK: - The server thread

extension ControlSocketServer {
    private static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    private func run() {
        var connections: [Int: ControlConnection] = [:]
        var scratch = [UInt8](repeating: 0, count: 64 * 1024)
        var pollSet: [pollfd] = []
        var pollOrder: [ControlConnection] = []
        var inputs: [ControlSocketInput] = []
        /// Accepting stops for a moment after EMFILE and the like, which would otherwise leave the
        /// listener readable and the loop spinning.
        var acceptPausedUntil: UInt64 = 0
        let grace = UInt64(max(0, limits.halfClosedGrace) * 1e9)
        state.withLock { $0.thread = pthread_self() }

        while true {
            let now = Self.monotonicNanoseconds()
            // Take what other threads asked for: verdicts, fatal replies, bytes to write.
            var condemned: [(ControlConnection, Verdict)] = []
            let stopping = state.withLock { shared -> Bool in
                for (id, connection) in connections {
                    guard let outbox = shared.outboxes[id] else { continue }
                    if let verdict = outbox.verdict { condemned.append((connection, verdict)) }
                    connection.isClosing = outbox.closeWhenFlushed
                    Self.refill(connection, from: &shared)
                }
                return shared.phase == .stopping
            }
            if stopping {
                // Replies already queued go out first (a `quit` is answered, then acts): one
                // non-blocking write each, which the kernel's socket buffer takes at once.
                for connection in connections.values where connection.pendingOutput > 0 { _ = connection.write(now: now) }
                break
            }
            for (connection, verdict) in condemned {
                switch verdict {
                case .overflow:
                    close(connection, &connections, level: .warning,
                          reason: "it read nothing while \(UnixSocket.describeSize(limits.maxQueuedBytes)) of replies and events waited")
                case .requested:
                    close(connection, &connections, level: .info, reason: nil)
                }
            }

            // Write now rather than after a poll: the kernel usually takes it all at once.
            var failed: [(ControlConnection, Int32)] = []
            var progress: [(ControlConnection, Int)] = []
            for connection in connections.values where connection.pendingOutput > 0 {
                let (written, failure) = connection.write(now: now)
                if let failure { failed.append((connection, failure)) } else if written > 0 { progress.append((connection, written)) }
            }
            for (connection, code) in failed { close(connection, &connections, level: .info, reason: ControlSocketError.reason(code)) }
            var flushed: [ControlConnection] = []
            state.withLock { shared in
                for (connection, written) in progress {
                    shared.outboxes[connection.peer.id]?.inFlight -= written
                }
                for connection in connections.values {
                    Self.refill(connection, from: &shared)
                    if connection.isClosing && connection.pendingOutput == 0 { flushed.append(connection) }
                }
            }
            for connection in flushed { close(connection, &connections, level: .info, reason: nil) }
            // A client being let go (half-closed, or after a fatal reply) that has read nothing for
            // the grace period is closed: it cannot hold its slot and its queue for ever.
            for connection in Array(connections.values) where connection.isWindingDown && now >= connection.lastProgress + grace {
                close(connection, &connections, level: .info, reason: nil)
            }

            // Wait for something to do.
            pollSet.removeAll(keepingCapacity: true)
            pollOrder.removeAll(keepingCapacity: true)
            pollSet.append(pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0))
            let accepting = now >= acceptPausedUntil
            pollSet.append(pollfd(fd: accepting ? listener : -1, events: Int16(POLLIN), revents: 0))
            var deadline: UInt64 = accepting ? .max : acceptPausedUntil
            for connection in connections.values {
                var events: Int16 = 0
                if !connection.isWindingDown { events |= Int16(POLLIN) }
                if connection.pendingOutput > 0 { events |= Int16(POLLOUT) }
                if connection.isWindingDown { deadline = min(deadline, connection.lastProgress + grace) }
                pollSet.append(pollfd(fd: connection.descriptor, events: events, revents: 0))
                pollOrder.append(connection)
            }
            var waitFrom = now
            do {
                // After a signal, the poll is asked again for what is left until the deadline.
                try SystemCall.retrying("poll") {
                    let wait = deadline > waitFrom ? deadline - waitFrom : 0
                    let timeout: Int32 = deadline == .max ? -1 : Int32(clamping: (wait + 999_999) / 1_000_000)
                    defer { waitFrom = Self.monotonicNanoseconds() }
                    return pollSet.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeout) }
                }
            } catch {
                log(.warning, "control: poll failed (\(error.message)); the control socket stops")
                break
            }
            let afterPoll = Self.monotonicNanoseconds()
            if pollSet[0].revents != 0 { drainWakeUps(&scratch) }
            if pollSet[1].revents != 0 {
                acceptPausedUntil = acceptAll(&connections, now: afterPoll)
            }
            for (index, connection) in pollOrder.enumerated() {
                let revents = Int32(pollSet[index + 2].revents)
                guard revents != 0, connections[connection.peer.id] === connection else { continue }
                if revents & Int32(POLLIN | POLLHUP | POLLERR) != 0 && !connection.isWindingDown {
                    inputs.removeAll(keepingCapacity: true)
                    let outcome = connection.read(into: &inputs, scratch: &scratch, budget: 256 * 1024, now: afterPoll)
                    deliver(inputs, from: connection)
                    if case .failed(let code) = outcome {
                        close(connection, &connections, level: .info, reason: ControlSocketError.reason(code))
                    }
                } else if revents & Int32(POLLHUP) != 0 {
                    // Hung up after a half-close (or while being let go): nothing more can reach it.
                    close(connection, &connections, level: .info, reason: nil)
                } else if revents & Int32(POLLERR) != 0 {
                    close(connection, &connections, level: .info, reason: ControlSocketError.reason(connection.socketError()))
                }
                // POLLOUT: written at the top of the loop.
            }
        }

        for connection in Array(connections.values) {
            close(connection, &connections, level: .info, reason: "the control socket is closing")
        }
        let writer = state.withLock { shared -> Int32 in
            shared.phase = .finished
            defer { shared.wakeWriter = -1 }
            return shared.wakeWriter
        }
        closeOwnDescriptors(wakeWriter: writer)
        finished.signal()
    }

    /// Hands the connection its queued bytes once it has written what it held.
    private static func refill(_ connection: ControlConnection, from shared: inout Shared) {
        let id = connection.peer.id
        guard connection.pendingOutput == 0, shared.outboxes[id]?.queued.isEmpty == false else { return }
        connection.takeOutput(&shared.outboxes[id]!.queued)
        shared.outboxes[id]?.inFlight = connection.pendingOutput
    }

    /// Passes each line on, unless a fatal reply or a disconnect came in between.
    private func deliver(_ inputs: [ControlSocketInput], from connection: ControlConnection) {
        for input in inputs {
            let open = state.withLock { shared in
                shared.outboxes[connection.peer.id].map { $0.verdict == nil && !$0.closeWhenFlushed } ?? false
            }
            guard open else { return }
            onInput(connection.peer, input)
        }
    }

    private func drainWakeUps(_ scratch: inout [UInt8]) {
        while scratch.withUnsafeMutableBytes({ recv(wakeReader, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {}
    }

    /// Accepts every waiting connection; returns until when accepting pauses (0: it does not).
    private func acceptAll(_ connections: inout [Int: ControlConnection], now: UInt64) -> UInt64 {
        while true {
            let fd: Int32
            do {
                fd = try SystemCall.retrying("accept4") { UnixSocket.acceptNonBlocking(listener) }
            } catch {
                switch error.code {
                case ECONNABORTED: continue
                case EAGAIN, EWOULDBLOCK: return 0
                default:
                    log(.warning, "control: cannot accept a connection (\(error.message)); trying again in 0.1 s")
                    return now + 100_000_000
                }
            }
            let credentials = UnixSocket.peerCredentials(fd) ?? (pid: 0, uid: .max, gid: .max)
            guard connections.count < limits.maxClients else {
                let refusal = "{\"ok\":false,\"error\":\"too many clients (\(limits.maxClients))\"}\n"
                _ = refusal.utf8CString.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, refusal.utf8.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
                UnixSocket.discardUnread(fd)
                Glibc.close(fd)
                log(.warning, "control: refused a connection (uid \(credentials.uid), pid \(credentials.pid)): too many clients (\(limits.maxClients))")
                continue
            }
            // Unique in the process (ControlPeer.allocateID), so two servers or transports never share one.
            let id = ControlPeer.allocateID()
            let peer = ControlPeer(id: id, uid: credentials.uid, gid: credentials.gid, pid: credentials.pid, role: role(uid: credentials.uid, gid: credentials.gid))
            let connection = ControlConnection(fd: fd, peer: peer, maxLineBytes: limits.maxLineBytes, now: now)
            connections[id] = connection
            state.withLock { $0.outboxes[id] = Outbox(peer: peer) }
            log(.info, "control: client \(id) connected (uid \(peer.uid), pid \(peer.pid), role \(peer.role.rawValue))")
            onConnect(peer)
        }
    }

    /// The role of a client that connected as `uid`/`gid`; accounts are looked up only when
    /// roles are configured (unknown credentials get the least).
    private func role(uid: UInt32, gid: UInt32) -> ControlRole {
        if roles.isEmpty { return .admin }
        if uid == .max { return .observe }
        return roles.role(of: PeerAccounts.peer(uid: uid, gid: gid), ownUID: getuid())
    }

    /// Closes one client: forgets its queue, closes its fd, logs one line and tells the callee.
    private func close(_ connection: ControlConnection, _ connections: inout [Int: ControlConnection], level: ControlSocketLogLevel, reason: String?) {
        guard connections.removeValue(forKey: connection.peer.id) != nil else { return }
        connection.close()
        log(level, "control: \(connection.peer) disconnected" + (reason.map { ": \($0)" } ?? ""))
        onDisconnect(connection.peer)
        // Last, so that once clientCount has dropped the line is logged and the callee told; what
        // was sent to it meanwhile goes with the outbox.
        state.withLock { _ = $0.outboxes.removeValue(forKey: connection.peer.id) }
    }
}
