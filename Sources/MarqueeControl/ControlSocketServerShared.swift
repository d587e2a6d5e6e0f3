import MarqueeCore
import Synchronization

/// What the control socket's callers (any thread) and its sources (the loop's thread) share, under
/// one lock: the server's phase, the listener's source, and for each client the lines queued for
/// it and whether it is to be closed. Never held while a callback runs or a system call waits.
final class ControlSocketShared: Sendable {
    enum Phase { case ready, running, stopping, finished }

    /// Why a client is to be closed, decided by another thread than the loop's.
    enum Verdict {
        case overflow
        case requested
    }

    /// What other threads hand the loop for one client.
    private struct Outbox {
        var queued: [UInt8] = []
        /// Bytes the loop took out of `queued` and has not written yet; they count against the limit.
        var inFlight = 0
        var closeWhenFlushed = false
        var verdict: Verdict?
    }

    private struct State {
        var phase = Phase.ready
        var listener: EventSourceID?
        var outboxes: [Int: Outbox] = [:]
    }

    private let state = Mutex(State())
    private let maxQueuedBytes: Int

    init(maxQueuedBytes: Int) {
        self.maxQueuedBytes = maxQueuedBytes
    }

    // MARK: Phase

    var phase: Phase { state.withLock { $0.phase } }

    /// Connections are taken only while running (not once `stop` began).
    var isAccepting: Bool { phase == .running }

    /// Ready to running; false when started or stopped already.
    func begin() -> Bool {
        state.withLock { state in
            guard state.phase == .ready else { return false }
            state.phase = .running
            return true
        }
    }

    /// Records the listener's source; false when the server stopped meanwhile (its caller then
    /// ends the source itself).
    func register(listener: EventSourceID) -> Bool {
        state.withLock { state in
            state.listener = listener
            return state.phase == .running
        }
    }

    var listener: EventSourceID? { state.withLock { $0.listener } }

    /// For `stop`: the phase before it and the listener's source. Ready becomes finished (nothing
    /// ran), running becomes stopping.
    func beginStopping() -> (phase: Phase, listener: EventSourceID?) {
        state.withLock { state in
            let phase = state.phase
            switch phase {
            case .ready: state.phase = .finished
            case .running: state.phase = .stopping
            case .stopping, .finished: break
            }
            return (phase, state.listener)
        }
    }

    /// Every source of the server has ended.
    func finish() {
        state.withLock { $0.phase = .finished }
    }

    // MARK: Outboxes (any thread)

    func open(_ peer: Int) {
        state.withLock { $0.outboxes[peer] = Outbox() }
    }

    /// Last, once the client's line is logged and the callee told; what was sent to it meanwhile
    /// goes with the outbox.
    func remove(_ peer: Int) {
        state.withLock { _ = $0.outboxes.removeValue(forKey: peer) }
    }

    var count: Int { state.withLock { $0.outboxes.count } }

    /// Queues `line` and "\n" for `peer`; whether the loop must be asked to flush (a queue that was
    /// not empty already has the loop coming back for it). A queue that would pass the limit is
    /// dropped and the client condemned instead (logged by the loop when it closes the connection:
    /// one line per disconnect).
    func enqueue(_ line: String, to peer: Int, closing: Bool) -> Bool {
        state.withLock { state in
            guard let outbox = state.outboxes[peer], outbox.verdict == nil, !outbox.closeWhenFlushed else { return false }
            if outbox.queued.count + outbox.inFlight + line.utf8.count + 1 > maxQueuedBytes {
                state.outboxes[peer]?.queued = []
                state.outboxes[peer]?.verdict = .overflow
                return true
            }
            let needsFlush = outbox.queued.isEmpty || closing
            state.outboxes[peer]?.queued.append(contentsOf: line.utf8)
            state.outboxes[peer]?.queued.append(UInt8(ascii: "\n"))
            state.outboxes[peer]?.closeWhenFlushed = closing
            return needsFlush
        }
    }

    /// Condemns `peer` without writing what waits for it; whether the loop must be asked to act.
    func disconnect(_ peer: Int) -> Bool {
        state.withLock { state in
            guard state.outboxes[peer] != nil, state.outboxes[peer]?.verdict == nil else { return false }
            state.outboxes[peer]?.verdict = .requested
            state.outboxes[peer]?.queued = []
            return true
        }
    }

    /// Whether what `peer` sends is still passed on (no fatal reply or disconnect came first).
    func isOpen(_ peer: Int) -> Bool {
        state.withLock { $0.outboxes[peer].map { $0.verdict == nil && !$0.closeWhenFlushed } ?? false }
    }

    // MARK: Taking output (the loop's thread)

    /// The verdict on the connection's client, if any; else mirrors `closeWhenFlushed` into the
    /// connection and hands it the queued bytes once it has written what it held.
    func take(for connection: ControlConnection) -> Verdict? {
        state.withLock { state in
            let id = connection.peer.id
            guard let outbox = state.outboxes[id] else { return nil }
            if let verdict = outbox.verdict { return verdict }
            Self.refill(connection, from: &state)
            return nil
        }
    }

    /// Counts `written` bytes as gone and refills a connection that wrote all it held; whether it
    /// took more.
    func wrote(_ written: Int, by connection: ControlConnection) -> Bool {
        state.withLock { state in
            let id = connection.peer.id
            state.outboxes[id]?.inFlight -= written
            return Self.refill(connection, from: &state)
        }
    }

    @discardableResult
    private static func refill(_ connection: ControlConnection, from state: inout State) -> Bool {
        let id = connection.peer.id
        guard let outbox = state.outboxes[id] else { return false }
        connection.isClosing = outbox.closeWhenFlushed
        guard connection.pendingOutput == 0, !outbox.queued.isEmpty else { return false }
        connection.takeOutput(&state.outboxes[id]!.queued)
        state.outboxes[id]?.inFlight = connection.pendingOutput
        return true
    }
}
