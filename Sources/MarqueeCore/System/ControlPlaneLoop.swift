import CLinux
import Foundation
import Glibc
import Synchronization

/// The control plane's one event loop, in the manner of systemd's sd-event: one thread waits in
/// epoll for every source the control plane listens to (input devices, hotplug uevents, the
/// control socket, the config file's inotify watch, wall-clock jumps, timers and signals through
/// signalfd) and runs each source's handler there, one at a time. Handlers must not block: they
/// read what is ready and hand work on. The real-time threads (present, decode, read-ahead,
/// audio, downloads, the CEC worker) are not sources; they never wait on this loop.
///
/// Every source has a stop rule: its handler may end it (`.end`), a source that hangs up and
/// keeps asking to be called is ended instead of spinning, `remove` ends it from any thread, and
/// `stop` ends whatever is left. Each is told once, through its `ended` callback, on this thread;
/// descriptors the loop was given to own are closed after that.
public final class ControlPlaneLoop: @unchecked Sendable {
    /// Consecutive hang-up reports a source may answer with `.keep` before it is ended: enough for
    /// a socket to drain what its peer sent before closing, few enough that nothing spins.
    static let hangUpsBeforeEnding = 64

    /// Its fields are set once; `hangUps` is touched only on the loop's thread.
    final class Source: @unchecked Sendable {
        let id: UInt64
        let name: String
        let descriptor: Int32
        let ownsDescriptor: Bool
        let handler: (EventReadiness) -> EventSourceStep
        let ended: ((EventSourceEnding) -> Void)?
        var hangUps = 0
        /// How often its handler ran (loop thread), for tests that a source is not spun on.
        var calls = 0

        init(id: UInt64, name: String, descriptor: Int32, ownsDescriptor: Bool,
             handler: @escaping (EventReadiness) -> EventSourceStep, ended: ((EventSourceEnding) -> Void)?) {
            self.id = id
            self.name = name
            self.descriptor = descriptor
            self.ownsDescriptor = ownsDescriptor
            self.handler = handler
            self.ended = ended
        }
    }

    struct State {
        var sources: [UInt64: Source] = [:]
        var nextID: UInt64 = 1
        var work: [@Sendable () -> Void] = []
        var removals: [(UInt64, EventSourceEnding)] = []
        var signalsToBlock: [Int32] = []
        var thread: pthread_t?
        /// `start` was called: requests go through the thread from then on, even before it runs.
        var started = false
        var stopping = false
        var finished = false
        /// Removals done, counted so `remove(waiting:)` knows when its own has run.
        var removalsDone: UInt64 = 0
        var removalsAsked: UInt64 = 0
    }

    /// The loop's name, given to its thread (`ps -L`, `top -H`).
    public let name: String
    let epoll: Int32
    private let wake: Int32
    let state = Mutex(State())
    private let finished = MonotonicCondition()
    let reportLine: @Sendable (String) -> Void
    /// Each timer's timerfd, for `rearm`.
    let timerDescriptors = Mutex<[UInt64: Int32]>([:])

    /// A loop not yet running: sources may be added before `start`. `report` hears the one line a
    /// failure of the loop itself is worth (its sources are ended with `.failed`).
    public init(name: String = "marquee.events", report: @escaping @Sendable (String) -> Void = { _ in }) throws(SystemError) {
        self.name = name
        self.reportLine = report
        epoll = try SystemCall.retrying("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        do {
            wake = try SystemCall.retrying("eventfd") { eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK)) }
        } catch {
            close(epoll)
            throw error
        }
        // Token 0 is the loop's own wake-up.
        _ = marquee_epoll_control(epoll, EPOLL_CTL_ADD, wake, marquee_epoll_in(), 0)
    }

    deinit {
        close(wake)
        close(epoll)
    }

    /// Starts the loop's thread. Sources added before run from now on.
    public func start() {
        state.withLock { $0.started = true }
        // Faults a test forces on the starting task apply to the loop's thread too.
        let faults = SystemCall.faults
        let thread = Thread { [self] in SystemCall.$faults.withValue(faults) { run() } }
        thread.name = name
        thread.start()
    }

    /// True on the loop's own thread (inside a handler or `perform`'s work).
    public var isOnLoopThread: Bool {
        state.withLock { $0.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    // MARK: Sources

    /// Watches `descriptor` for `readiness` (readable by default); `handler` runs on the loop's
    /// thread each time it is ready. With `owning`, the loop closes the descriptor once the source
    /// has ended. A descriptor the kernel will not watch ends the source at once (`.failed`).
    @discardableResult
    public func watch(_ descriptor: Int32, named name: String, for readiness: EventReadiness = .readable,
                      owning: Bool = false, ended: ((EventSourceEnding) -> Void)? = nil,
                      handler: @escaping (EventReadiness) -> EventSourceStep) -> EventSourceID {
        let source = state.withLock { state -> Source in
            let source = Source(id: state.nextID, name: name, descriptor: descriptor, ownsDescriptor: owning,
                                handler: handler, ended: ended)
            state.nextID += 1
            state.sources[source.id] = source
            return source
        }
        do {
            try SystemCall.retrying("epoll_ctl", path: name) {
                marquee_epoll_control(epoll, EPOLL_CTL_ADD, descriptor, Self.kernelEvents(readiness), source.id)
            }
        } catch {
            state.withLock { _ = $0.sources.removeValue(forKey: source.id) }
            finish(source, .failed(error), unregister: false)
        }
        return EventSourceID(raw: source.id)
    }

    /// Changes what a watched descriptor is waited for (a socket with output queued also waits to
    /// be writable). Any thread.
    public func change(_ id: EventSourceID, to readiness: EventReadiness) {
        guard let source = state.withLock({ $0.sources[id.raw] }) else { return }
        _ = marquee_epoll_control(epoll, EPOLL_CTL_MOD, source.descriptor, Self.kernelEvents(readiness), id.raw)
    }

    /// Ends a source: its handler is not called again once this returns on the loop's thread, or
    /// (with `waiting`, from another thread) once the loop has taken the removal. Unknown or
    /// already ended sources are ignored.
    public func remove(_ id: EventSourceID, waiting: Bool = false) {
        if isOnLoopThread || !isRunning {
            guard let source = state.withLock({ $0.sources.removeValue(forKey: id.raw) }) else { return }
            finish(source, .removed, unregister: true)
            return
        }
        let ticket = state.withLock { state -> UInt64 in
            state.removals.append((id.raw, .removed))
            state.removalsAsked += 1
            return state.removalsAsked
        }
        wakeUp()
        guard waiting else { return }
        finished.withLock {
            while state.withLock({ $0.removalsDone < ticket && !$0.finished }) { finished.wait() }
        }
    }

    /// Runs `work` on the loop's thread, after the handler running now; in order of asking.
    public func perform(_ work: @escaping @Sendable () -> Void) {
        state.withLock { $0.work.append(work) }
        wakeUp()
    }

    // MARK: Running

    private var isRunning: Bool { state.withLock { $0.started && !$0.finished } }

    /// Ends every source (`.loopStopped`) and the thread, and waits for it unless called from a
    /// handler (the loop then ends when that handler returns). Idempotent.
    public func stop() {
        let wasStarted = state.withLock { state -> Bool in
            state.stopping = true
            return state.started || state.finished
        }
        wakeUp()
        if !wasStarted {
            endAll(.loopStopped)
            state.withLock { $0.finished = true }
            return
        }
        if isOnLoopThread { return }
        finished.withLock {
            while !state.withLock({ $0.finished }) { finished.wait() }
        }
    }

    func wakeUp() {
        var one: UInt64 = 1
        _ = write(wake, &one, MemoryLayout<UInt64>.size)
    }

    private func run() {
        // The name `ps -L` and /proc/PID/task/*/comm show (at most 15 bytes).
        ThreadName.set(name)
        let alreadyStopping = state.withLock { state -> Bool in
            state.thread = pthread_self()
            return state.stopping
        }
        var tokens = [UInt64](repeating: 0, count: 64)
        var events = [UInt32](repeating: 0, count: 64)
        var failure: SystemError?
        var stopping = alreadyStopping
        while !stopping {
            takeRequests()
            if state.withLock({ $0.stopping }) { break }
            let count: Int32
            do {
                count = try SystemCall.retrying("epoll_wait", path: name) {
                    marquee_epoll_wait(epoll, &tokens, &events, Int32(tokens.count), -1)
                }
            } catch {
                failure = error
                break
            }
            for index in 0..<Int(count) {
                if tokens[index] == 0 {
                    drainWakeUps()
                    continue
                }
                dispatch(tokens[index], events[index])
                if state.withLock({ $0.stopping }) { break }
            }
            stopping = state.withLock { $0.stopping }
        }
        if let failure {
            reportLine("events: the control-plane loop failed (\(failure)); its sources stop")
        }
        endAll(failure.map { .failed($0) } ?? .loopStopped)
        state.withLock { state in
            state.finished = true
            state.removalsDone = state.removalsAsked
            state.work.removeAll()
        }
        finished.withLock { finished.broadcast() }
    }

    private func dispatch(_ token: UInt64, _ kernelEvents: UInt32) {
        guard let source = state.withLock({ $0.sources[token] }) else { return }
        let readiness = Self.readiness(kernelEvents)
        source.calls += 1
        let step = source.handler(readiness)
        // The handler may have removed its own source.
        guard state.withLock({ $0.sources[token] === source }) else { return }
        if step == .end {
            state.withLock { _ = $0.sources.removeValue(forKey: token) }
            finish(source, .byHandler, unregister: true)
            return
        }
        if readiness.contains(.hungUp) || readiness.contains(.failed) {
            source.hangUps += 1
            // A hang-up with nothing left to read stays reported forever: ended, not spun on.
            if !readiness.contains(.readable) || source.hangUps >= Self.hangUpsBeforeEnding {
                state.withLock { _ = $0.sources.removeValue(forKey: token) }
                finish(source, .hungUp, unregister: true)
            }
        } else {
            source.hangUps = 0
        }
    }

    /// Removals, signal masks and work asked for from other threads, in order.
    private func takeRequests() {
        let (removals, work, signals) = state.withLock { state in
            defer {
                state.removals.removeAll()
                state.work.removeAll()
                state.signalsToBlock.removeAll()
            }
            return (state.removals, state.work, state.signalsToBlock)
        }
        if !signals.isEmpty { Self.block(signals) }
        for (token, ending) in removals {
            if let source = state.withLock({ $0.sources.removeValue(forKey: token) }) {
                finish(source, ending, unregister: true)
            }
            state.withLock { $0.removalsDone += 1 }
        }
        if !removals.isEmpty { finished.withLock { finished.broadcast() } }
        for item in work { item() }
    }

    private func drainWakeUps() {
        var count: UInt64 = 0
        _ = read(wake, &count, MemoryLayout<UInt64>.size)
    }

    private func endAll(_ ending: EventSourceEnding) {
        let sources = state.withLock { state -> [Source] in
            defer { state.sources.removeAll() }
            return state.sources.values.sorted { $0.id < $1.id }
        }
        for source in sources { finish(source, ending, unregister: true) }
    }

    private func finish(_ source: Source, _ ending: EventSourceEnding, unregister: Bool) {
        if unregister { _ = marquee_epoll_control(epoll, EPOLL_CTL_DEL, source.descriptor, 0, source.id) }
        source.ended?(ending)
        timerDescriptors.withLock { _ = $0.removeValue(forKey: source.id) }
        if source.ownsDescriptor { close(source.descriptor) }
    }

    static func kernelEvents(_ readiness: EventReadiness) -> UInt32 {
        // No EPOLLRDHUP: a peer that shuts only its writing side (`socat`, `nc -N`) is not a
        // hang-up; its reader sees end of file and decides. EPOLLHUP and EPOLLERR always come.
        var events: UInt32 = 0
        if readiness.contains(.readable) { events |= marquee_epoll_in() }
        if readiness.contains(.writable) { events |= marquee_epoll_out() }
        return events
    }

    static func readiness(_ events: UInt32) -> EventReadiness {
        var readiness: EventReadiness = []
        if events & marquee_epoll_in() != 0 { readiness.insert(.readable) }
        if events & marquee_epoll_out() != 0 { readiness.insert(.writable) }
        if events & marquee_epoll_hup_only() != 0 { readiness.insert(.hungUp) }
        if events & marquee_epoll_err() != 0 { readiness.insert(.failed) }
        return readiness
    }

    static func block(_ signals: [Int32]) {
        _ = signals.withUnsafeBufferPointer { marquee_block_signals($0.baseAddress, Int32($0.count), 1) }
    }
}
