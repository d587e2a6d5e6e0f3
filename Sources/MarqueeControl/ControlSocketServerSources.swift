import Glibc
import MarqueeCore

/// The control socket as sources on a `ControlPlaneLoop`: the listener, one source per client, and
/// one timer for the deadlines. Everything here runs on the loop's thread, one handler at a time,
/// so it takes no lock of its own (with the loop not running, `stop` ends the sources on its own
/// thread instead); what other threads hand it comes through `ControlSocketShared` and
/// `loop.perform`. Nothing here ever blocks: every descriptor is non-blocking.
///
/// Each source has its stop rule. The listener ends on `stop`, when the loop stops, or on a failure
/// (one warning line); its ending closes every client and ends the timer. A client's source ends
/// when the client hangs up, fails, overflows its queue, is condemned (`disconnect`, a
/// `sendAndClose` written) or is let go after the grace.
///
/// A client that shuts down only its writing side (`socat`, `nc -N`) still gets its replies. Its
/// source stays but no longer waits to read (its socket stays readable at end of file, and a source
/// waiting for that would be called without end): only for room to write while output is queued,
/// and for the hang-up or error epoll always reports. It is closed when it hangs up, or at the
/// latest after the grace without progress (the timer). A client whose source the loop ended
/// while it was being let go lingers on the timer instead: every `lingerCheck`, one poll() without
/// waiting tells whether it has hung up for good, failed, or can take more output.
final class ControlSocketSources: @unchecked Sendable {
    /// How often clients that shut down their writing side are looked at.
    static let lingerCheck: UInt64 = 20_000_000
    /// How long accepting pauses after EMFILE and the like, which would otherwise leave the
    /// listener readable and its handler called without end.
    static let acceptPause: UInt64 = 100_000_000
    /// What one client's read may take before the loop goes on to other sources.
    static let readBudget = 256 * 1024

    /// One client: its connection, and its source while it has one.
    final class Client {
        let connection: ControlConnection
        /// Watched by its own source (false before it has one, once it has ended, and while the
        /// client lingers half-closed).
        var attached = false
        var source: EventSourceID?
        var interest: EventReadiness = .readable

        init(_ connection: ControlConnection) {
            self.connection = connection
        }

        var peer: ControlPeer { connection.peer }
    }

    struct Callbacks {
        let log: ControlSocketServer.Log
        let onConnect: @Sendable (ControlPeer) -> Void
        let onInput: @Sendable (ControlPeer, ControlSocketInput) -> Void
        let onDisconnect: @Sendable (ControlPeer) -> Void
    }

    private let loop: ControlPlaneLoop
    private let listener: Int32
    private let path: String
    private let limits: ControlSocketServer.Limits
    private let roles: SocketRoles
    private let shared: ControlSocketShared
    private let callbacks: Callbacks
    private let grace: UInt64
    /// Made with the server (disarmed) and ended by the listener's ending, or by `stop`/deinit of a
    /// server never started.
    private(set) var timer: EventSourceID?

    // The loop's thread only.
    private var clients: [Int: Client] = [:]
    private var acceptPausedUntil: UInt64?
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    private var inputs: [ControlSocketInput] = []

    init(loop: ControlPlaneLoop, listener: Int32, path: String, limits: ControlSocketServer.Limits, roles: SocketRoles,
         shared: ControlSocketShared, callbacks: Callbacks) throws(ControlSocketError) {
        self.loop = loop
        self.listener = listener
        self.path = path
        self.limits = limits
        self.roles = roles
        self.shared = shared
        self.callbacks = callbacks
        self.grace = UInt64(min(max(0, limits.halfClosedGrace), 1e9) * 1e9)
        timer = loop.timer(named: "control deadlines \(path)") { [weak self] in self?.deadlinesPassed() }
        guard timer != nil else { throw ControlSocketError("\(path): cannot make the timer for its deadlines") }
    }

    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    private func log(_ level: ControlSocketLogLevel, _ line: String) { callbacks.log(level, line) }

    // MARK: The listener

    /// Watches the listener (which the loop then owns and closes once the source has ended).
    func start() {
        let id = loop.watch(listener, named: "control \(path)", owning: true,
                            ended: { [self] in listenerEnded($0) },
                            handler: { [self] _ in
                                acceptAll()
                                return .keep
                            })
        if !shared.register(listener: id) {
            // Stopped before the listener was recorded (from a callback of a client it took at once).
            loop.remove(id, waiting: !loop.isOnLoopThread)
        }
    }

    private func listenerEnded(_ ending: EventSourceEnding) {
        switch ending {
        case .removed, .loopStopped:
            break
        case .failed(let error):
            log(.warning, "control: cannot wait for connections (\(error)); the control socket stops")
        case .byHandler, .hungUp:
            log(.warning, "control: the listening socket failed; the control socket stops")
        }
        closeAll()
    }

    /// Closes every client (what is queued for it gets one non-blocking write first, which the
    /// kernel's socket buffer takes at once: a `quit` is answered, then acts) and ends the timer.
    private func closeAll() {
        let now = Self.monotonicNanoseconds()
        for client in clients.values.sorted(by: { $0.peer.id < $1.peer.id }) {
            _ = shared.take(for: client.connection)
            if client.connection.pendingOutput > 0 { _ = client.connection.write(now: now) }
            drop(client, level: .info, reason: "the control socket is closing")
        }
        if let timer {
            self.timer = nil
            loop.remove(timer)
        }
        acceptPausedUntil = nil
        shared.finish()
    }

    /// The timer of a server never started: `stop` or deinit end it, the listener never ran.
    func endTimer(waiting: Bool) {
        if let timer { loop.remove(timer, waiting: waiting) }
    }

    /// Accepts every waiting connection.
    private func acceptAll() {
        while shared.isAccepting {
            let fd: Int32
            do {
                fd = try SystemCall.retrying("accept4") { UnixSocket.acceptNonBlocking(listener) }
            } catch {
                switch error.code {
                case ECONNABORTED: continue
                case EAGAIN, EWOULDBLOCK: return
                default:
                    log(.warning, "control: cannot accept a connection (\(error.message)); trying again in 0.1 s")
                    pauseAccepting()
                    return
                }
            }
            let credentials = UnixSocket.peerCredentials(fd) ?? (pid: 0, uid: .max, gid: .max)
            guard clients.count < limits.maxClients else {
                let refusal = "{\"ok\":false,\"error\":\"too many clients (\(limits.maxClients))\"}\n"
                _ = refusal.utf8CString.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, refusal.utf8.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
                UnixSocket.discardUnread(fd)
                Glibc.close(fd)
                log(.warning, "control: refused a connection (uid \(credentials.uid), pid \(credentials.pid)): too many clients (\(limits.maxClients))")
                continue
            }
            // Unique in the process (ControlPeer.allocateID), so two servers or transports never share one.
            let id = ControlPeer.allocateID()
            let peer = ControlPeer(id: id, uid: credentials.uid, gid: credentials.gid, pid: credentials.pid,
                                   role: role(uid: credentials.uid, gid: credentials.gid))
            let client = Client(ControlConnection(fd: fd, peer: peer, maxLineBytes: limits.maxLineBytes, now: Self.monotonicNanoseconds()))
            clients[id] = client
            shared.open(id)
            log(.info, "control: client \(id) connected (uid \(peer.uid), pid \(peer.pid), role \(peer.role.rawValue))")
            callbacks.onConnect(peer)
            // The callee may have stopped the server meanwhile.
            guard clients[id] === client, shared.isAccepting else { continue }
            attach(client)
        }
    }

    private func pauseAccepting() {
        let now = Self.monotonicNanoseconds()
        acceptPausedUntil = now + Self.acceptPause
        if let listener = shared.listener { loop.change(listener, to: []) }
        armTimer(now: now)
    }

    /// The role of a client that connected as `uid`/`gid`; accounts are looked up only when
    /// roles are configured (unknown credentials get the least).
    private func role(uid: UInt32, gid: UInt32) -> ControlRole {
        if roles.isEmpty { return .admin }
        if uid == .max { return .observe }
        return roles.role(of: PeerAccounts.peer(uid: uid, gid: gid), ownUID: getuid())
    }

    // MARK: Clients

    /// Gives the client its source. A descriptor the kernel will not watch ends it at once (its
    /// `ended` runs inside `watch`), which closes the client.
    private func attach(_ client: Client) {
        client.attached = true
        client.interest = .readable
        let source = loop.watch(client.connection.descriptor, named: "control client \(client.peer.id)", for: .readable,
                                ended: { [self] in clientEnded(client, $0) },
                                handler: { [self] in clientReady(client, $0) })
        if client.attached { client.source = source }
    }

    private func isCurrent(_ client: Client) -> Bool {
        clients[client.peer.id] === client
    }

    private func clientReady(_ client: Client, _ readiness: EventReadiness) -> EventSourceStep {
        guard client.attached, isCurrent(client) else { return .end }
        let connection = client.connection
        if !connection.isWindingDown && !readiness.isDisjoint(with: [.readable, .hungUp, .failed]) {
            inputs.removeAll(keepingCapacity: true)
            let outcome = connection.read(into: &inputs, scratch: &scratch, budget: Self.readBudget, now: Self.monotonicNanoseconds())
            let lines = inputs
            deliver(lines, from: client)
            // A callback may have stopped the server, which closed this client and ended its source.
            guard client.attached, isCurrent(client) else { return .keep }
            switch outcome {
            case .failed(let code):
                drop(client, level: .info, reason: ControlSocketError.reason(code))
                return .keep
            case .ended:
                return letGoOfSource(client)
            case .open:
                break
            }
        } else if !readiness.isDisjoint(with: [.hungUp, .failed]) {
            // Being let go (a fatal reply waits to be written) and the client hung up or half-closed.
            return letGoOfSource(client)
        }
        if readiness.contains(.writable) { service(client) }
        return .keep
    }

    /// Passes each line on, unless a fatal reply, a disconnect or a stop came in between.
    private func deliver(_ inputs: [ControlSocketInput], from client: Client) {
        for input in inputs {
            guard isCurrent(client), shared.isOpen(client.peer.id) else { return }
            callbacks.onInput(client.peer, input)
        }
    }

    /// The client's input ended or it hung up: closed now if it is gone for good, else (only its
    /// writing side is shut) it keeps its source, now waiting only to write what is queued (and for
    /// the hang-up epoll always reports), with the grace on the timer.
    private func letGoOfSource(_ client: Client) -> EventSourceStep {
        // Still attached here: `drop` ends the source before the descriptor is closed.
        if closeIfGone(client) { return .keep }
        service(client)  // winding down: writes what waits, stops asking to read
        armTimer(now: Self.monotonicNanoseconds())
        return .keep
    }

    private func clientEnded(_ client: Client, _ ending: EventSourceEnding) {
        guard client.attached, isCurrent(client) else { return }
        client.attached = false
        switch ending {
        case .failed(let error):
            drop(client, level: .info, reason: ControlSocketError.reason(error.code))
        case .removed, .loopStopped:
            _ = shared.take(for: client.connection)
            if client.connection.pendingOutput > 0 { _ = client.connection.write(now: Self.monotonicNanoseconds()) }
            drop(client, level: .info, reason: "the control socket is closing")
        case .byHandler, .hungUp:
            // Ended by the loop: half-closed while a fatal reply waits (it lingers like any
            // half-closed client), or still sending after 64 reads in a row that did not drain it.
            guard !closeIfGone(client) else { return }
            if client.connection.isWindingDown { service(client) } else { drop(client, level: .info, reason: nil) }
        }
    }

    /// Closes the client if its socket has failed or hung up for good (not merely half-closed);
    /// whether it did.
    private func closeIfGone(_ client: Client) -> Bool {
        var entry = pollfd(fd: client.connection.descriptor, events: 0, revents: 0)
        guard poll(&entry, 1, 0) > 0 else { return false }
        return closeIfGone(client, revents: entry.revents)
    }

    private func closeIfGone(_ client: Client, revents: Int16) -> Bool {
        if Int32(revents) & Int32(POLLERR) != 0 {
            drop(client, level: .info, reason: ControlSocketError.reason(client.connection.socketError()))
            return true
        }
        if Int32(revents) & Int32(POLLHUP) != 0 {
            drop(client, level: .info, reason: nil)
            return true
        }
        return false
    }

    /// What `send`, `sendAndClose` and `disconnect` ask of the loop.
    func flush(_ peer: Int) {
        guard let client = clients[peer] else { return }
        service(client)
    }

    /// Acts on a verdict, writes what is queued as far as the kernel takes it, closes a client
    /// whose fatal reply is written, and waits for `.writable` while output is left.
    private func service(_ client: Client) {
        guard isCurrent(client) else { return }
        let connection = client.connection
        switch shared.take(for: connection) {
        case .overflow:
            drop(client, level: .warning, reason: "it read nothing while \(UnixSocket.describeSize(limits.maxQueuedBytes)) of replies and events waited")
            return
        case .requested:
            drop(client, level: .info, reason: nil)
            return
        case nil:
            break
        }
        let now = Self.monotonicNanoseconds()
        while connection.pendingOutput > 0 {
            let (written, failure) = connection.write(now: now)
            if let failure {
                drop(client, level: .info, reason: ControlSocketError.reason(failure))
                return
            }
            // Wrote all it held and took more: write again; else the kernel's buffer is full.
            guard shared.wrote(written, by: connection) else { break }
        }
        if connection.isClosing && connection.pendingOutput == 0 {
            drop(client, level: .info, reason: nil)
            return
        }
        if client.attached, let source = client.source {
            var wanted: EventReadiness = connection.isWindingDown ? [] : .readable
            if connection.pendingOutput > 0 { wanted.insert(.writable) }
            if wanted != client.interest {
                client.interest = wanted
                loop.change(source, to: wanted)
            }
        }
        if connection.isWindingDown { armTimer(now: now) }
    }

    /// Closes one client: ends its source (before the descriptor is closed, so the loop never
    /// unregisters a number reused meanwhile), closes its fd, logs one line and tells the callee.
    private func drop(_ client: Client, level: ControlSocketLogLevel, reason: String?) {
        guard clients.removeValue(forKey: client.peer.id) != nil else { return }
        if client.attached {
            client.attached = false
            if let source = client.source { loop.remove(source) }
        }
        client.connection.close()
        log(level, "control: \(client.peer) disconnected" + (reason.map { ": \($0)" } ?? ""))
        callbacks.onDisconnect(client.peer)
        // Last, so that once clientCount has dropped the line is logged and the callee told.
        shared.remove(client.peer.id)
    }

    // MARK: The timer

    /// Accepting again after a pause, the half-closed clients' check, and the grace: a client being
    /// let go (half-closed, or after a fatal reply) that has read nothing for it is closed, as it
    /// cannot hold its slot and its queue for ever.
    private func deadlinesPassed() {
        let now = Self.monotonicNanoseconds()
        if let paused = acceptPausedUntil, now >= paused {
            acceptPausedUntil = nil
            if shared.isAccepting, let listener = shared.listener { loop.change(listener, to: .readable) }
        }
        let lingering = clients.values.filter { !$0.attached }
        if !lingering.isEmpty {
            var entries = lingering.map {
                pollfd(fd: $0.connection.descriptor, events: $0.connection.pendingOutput > 0 ? Int16(POLLOUT) : 0, revents: 0)
            }
            if entries.withUnsafeMutableBufferPointer({ poll($0.baseAddress, nfds_t($0.count), 0) }) > 0 {
                for (client, entry) in zip(lingering, entries) where entry.revents != 0 {
                    if !closeIfGone(client, revents: entry.revents) { service(client) }
                }
            }
        }
        for client in Array(clients.values) where client.connection.isWindingDown && now >= client.connection.lastProgress &+ grace {
            drop(client, level: .info, reason: nil)
        }
        armTimer(now: now)
    }

    /// Arms the timer for the nearest deadline, or disarms it when there is none.
    private func armTimer(now: UInt64) {
        guard let timer else { return }
        var next = acceptPausedUntil ?? .max
        for client in clients.values where client.connection.isWindingDown {
            next = min(next, client.connection.lastProgress &+ grace)
            if !client.attached { next = min(next, now + Self.lingerCheck) }
        }
        loop.rearm(timer, after: next == .max ? nil : .nanoseconds(Int64(clamping: next > now ? next - now : 0)))
    }
}
