import CMosquitto
import Dispatch
import Foundation
import MarqueeCore
import Synchronization

/// The one owner of a libmosquitto client (`struct mosquitto *`): connects, reconnects with
/// back-off and serves the connection on a network thread of its own, so a broker that is down,
/// slow or flooding is that thread's business only. `publish` hands a message to the library
/// (which queues it for the network thread) or drops it; it never waits for the broker.
///
/// Journal lines are said once per outage: `mqtt: 127.0.0.1:1883 unreachable (Connection
/// refused); retrying` when it starts, `mqtt: connected to 127.0.0.1:1883 as marquee/lobby` when
/// it ends.
public final class MQTTClient: BrokerConnection, @unchecked Sendable {
    /// Called on the network thread.
    public typealias Handlers = BrokerHandlers

    private let handle: OpaquePointer
    private let options: MQTTClientOptions
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// Messages handed to the library, and those it has written (QoS 0) or had acknowledged.
    private let handedOver = Atomic<Int>(0)
    private let written = Atomic<Int>(0)

    private struct State {
        var phase = Phase.ready
        var handlers: Handlers?
        /// The broker accepted the current connection.
        var connected = false
        /// Set by a CONNACK, cleared by the network thread when the connection ends.
        var upSinceLastFailure = false
        /// The outage has been said; the next connection says so.
        var outageSaid = false
        var dropping = false
        var dropped = 0
        /// OpenSSL's reason for the last failed TLS handshake (`certificate verify failed`), from
        /// the library's log; libmosquitto's own code says only "A TLS error occurred".
        var tlsReason: String?
    }

    private enum Phase { case ready, running, stopping }

    private static let ok = Int32(truncatingIfNeeded: MOSQ_ERR_SUCCESS.rawValue)
    private static let libraryReady: Int32 = mosquitto_lib_init()

    /// `127.0.0.1:1883`
    public var address: String { options.host.contains(":") ? "[\(options.host)]:\(options.port)" : "\(options.host):\(options.port)" }

    public init(options: MQTTClientOptions) throws {
        _ = Self.libraryReady
        guard let handle = mosquitto_new(options.clientID, true, nil) else {
            throw MQTTError("mosquitto_new", code: Int32(truncatingIfNeeded: MOSQ_ERR_ERRNO.rawValue))
        }
        self.handle = handle
        self.options = options
        // Publishes from other threads only queue and wake the network thread.
        try check(mosquitto_threaded_set(handle, true), "mosquitto_threaded_set")
        if let username = options.username {
            try check(mosquitto_username_pw_set(handle, username, options.password), "mosquitto_username_pw_set")
        }
        if let will = options.will {
            let bytes = Array(will.payload.utf8)
            try check(mosquitto_will_set(handle, will.topic, Int32(bytes.count), bytes, 1, will.retain), "mosquitto_will_set")
        }
        if options.usesTLS {
            let capath: String? = options.caFile == nil ? "/etc/ssl/certs" : nil
            try check(mosquitto_tls_set(handle, options.caFile, capath, nil, nil, nil), "mosquitto_tls_set")
        }
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        mosquitto_connect_callback_set(handle) { _, context, rc in MQTTClient.from(context)?.connackReceived(rc) }
        mosquitto_disconnect_callback_set(handle) { _, context, _ in MQTTClient.from(context)?.connectionEnded() }
        mosquitto_publish_callback_set(handle) { _, context, mid in MQTTClient.from(context)?.messageWritten(mid) }
        mosquitto_log_callback_set(handle) { _, context, level, text in
            guard level == MOSQ_LOG_ERR, let text else { return }
            MQTTClient.from(context)?.libraryLogged(String(cString: text))
        }
        mosquitto_message_callback_set(handle) { _, context, message in
            guard let client = MQTTClient.from(context), let message, let topic = message.pointee.topic else { return }
            let count = Int(max(0, message.pointee.payloadlen))
            let payload = message.pointee.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
            client.messageReceived(String(cString: topic), payload)
        }
    }

    deinit {
        mosquitto_destroy(handle)
    }

    private static func from(_ context: UnsafeMutableRawPointer?) -> MQTTClient? {
        context.map { Unmanaged<MQTTClient>.fromOpaque($0).takeUnretainedValue() }
    }

    private func check(_ rc: Int32, _ operation: String) throws {
        guard rc == Self.ok else { throw MQTTError(operation, code: rc) }
    }

    /// Starts the network thread: connect, serve, and on any failure wait and try again.
    public func start(_ handlers: Handlers) {
        let starting = state.withLock { state in
            guard state.phase == .ready else { return false }
            state.phase = .running
            state.handlers = handlers
            return true
        }
        guard starting else { return }
        // The thread keeps the client alive until it ends.
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "marquee.mqtt"
        thread.start()
    }

    /// Whether the broker has accepted the current connection.
    public var isConnected: Bool { state.withLock { $0.connected } }

    /// Hands one message to the library and says its id (libmosquitto's mid, which the
    /// `published` handler names when its PUBACK comes), or drops it (nil: not connected, or
    /// `maxUnsentMessages` waiting already). Never waits for the network.
    @discardableResult
    public func send(_ topic: String, _ payload: [UInt8], retain: Bool, qos: Int32) -> Int32? {
        guard state.withLock({ $0.connected }) else { return nil }
        let waiting = handedOver.load(ordering: .relaxed) - written.load(ordering: .relaxed)
        if waiting >= options.maxUnsentMessages {
            let first = state.withLock { state in
                state.dropped += 1
                defer { state.dropping = true }
                return !state.dropping
            }
            if first { say(true, "mqtt: \(address) is not taking messages (\(waiting) unsent); dropping new ones until it does") }
            return nil
        }
        var mid: Int32 = 0
        let rc = payload.withUnsafeBytes { mosquitto_publish(handle, &mid, topic, Int32($0.count), $0.baseAddress, qos, retain) }
        guard rc == Self.ok else { return nil }
        handedOver.add(1, ordering: .relaxed)
        let dropped = state.withLock { state -> Int in
            guard state.dropping else { return 0 }
            defer { state.dropping = false; state.dropped = 0 }
            return state.dropped
        }
        if dropped > 0 { say(true, "mqtt: \(address) takes messages again; \(dropped) were dropped") }
        return mid
    }

    public func subscribe(_ topic: String, qos: Int32) {
        let rc = mosquitto_subscribe(handle, nil, topic, qos)
        if rc != Self.ok { say(true, "mqtt: subscribing to \(topic): \(MQTTError.describe(rc, errno: marquee_mosquitto_errno()))") }
    }

    /// Publishes `last` (if connected), disconnects cleanly and waits at most `seconds` for the
    /// network thread to be done. A broker that takes nothing is left behind, not waited for.
    public func stop(last: (topic: String, payload: String, retain: Bool)?, waitingAtMost seconds: Double) {
        let (running, connected) = state.withLock { state -> (Bool, Bool) in
            let running = state.phase == .running
            state.phase = .stopping
            return (running, state.connected)
        }
        guard running else { return }
        if connected {
            if let last { publish(last.topic, Array(last.payload.utf8), retain: last.retain, qos: 1) }
            _ = mosquitto_disconnect(handle)
        }
        wake.signal()
        _ = finished.wait(timeout: .now() + seconds)
    }

    private var isStopping: Bool { state.withLock { $0.phase == .stopping } }

    private func say(_ warning: Bool, _ line: String) {
        state.withLock { $0.handlers }?.log(warning, line)
    }

    // MARK: the network thread

    private func run() {
        var delay = options.minimumRetryDelay
        var rc = mosquitto_connect(handle, options.host, Int32(options.port), Int32(options.keepalive))
        var error = marquee_mosquitto_errno()
        while !isStopping {
            if rc == Self.ok {
                // A connection: serve it until it ends (a stop's DISCONNECT ends it too).
                repeat {
                    rc = mosquitto_loop(handle, 100, 1)
                } while rc == Self.ok
                error = marquee_mosquitto_errno()
                if isStopping { break }
                let wasUp = state.withLock { state in
                    defer { state.upSinceLastFailure = false; state.connected = false }
                    return state.upSinceLastFailure
                }
                if wasUp {
                    delay = options.minimumRetryDelay
                    state.withLock { $0.outageSaid = true; $0.tlsReason = nil }
                    say(true, "mqtt: lost the connection to \(address) (\(MQTTError.describe(rc, errno: error))); retrying")
                } else {
                    failed(rc, error, afterConnecting: true)
                }
            } else {
                failed(rc, error)
            }
            if wake.wait(timeout: .now() + delay) == .success || isStopping { break }
            delay = min(delay * 2, options.maximumRetryDelay)
            rc = mosquitto_reconnect(handle)
            error = marquee_mosquitto_errno()
        }
    }

    /// A connection attempt failed: said once per outage. `afterConnecting`: the broker took the
    /// socket but closed it before a CONNACK (as a TLS-only port does to a plain client).
    private func failed(_ rc: Int32, _ error: Int32, afterConnecting: Bool = false) {
        let (first, tlsReason) = state.withLock { state in
            defer { state.outageSaid = true; state.tlsReason = nil }
            return (!state.outageSaid, state.tlsReason)
        }
        guard first else { return }
        // The handshake fails in mosquitto_connect or, when it has to wait for the broker, in mosquitto_loop.
        if rc == Int32(MOSQ_ERR_TLS.rawValue) {
            say(true, "mqtt: \(address) TLS handshake failed (\(Self.explain(tlsReason: tlsReason, caFile: options.caFile, host: options.host))); retrying")
        } else if afterConnecting {
            let hint = options.usesTLS ? "" : "; a broker that speaks TLS only needs an mqtts:// url"
            say(true, "mqtt: \(address) closed the connection without accepting it (\(MQTTError.describe(rc, errno: error))\(hint)); retrying")
        } else {
            say(true, "mqtt: \(address) unreachable (\(MQTTError.describe(rc, errno: error))); retrying")
        }
    }

    /// OpenSSL's reason, with what it means here when it is the broker's certificate that failed
    /// (libmosquitto's check of the host name fails it the same way).
    static func explain(tlsReason: String?, caFile: String?, host: String) -> String {
        guard let reason = tlsReason else { return "A TLS error occurred" }
        guard reason == "certificate verify failed" else { return reason }
        let trusted = caFile.map { "the CA in \($0)" } ?? "a CA in /etc/ssl/certs (no tls.caFile given)"
        return "\(reason): the broker's certificate is not signed by \(trusted), or not issued for \(host)"
    }

    /// Keeps OpenSSL's reason from `OpenSSL Error[0]: error:0A000086:SSL routines::certificate
    /// verify failed` (the first error of a failed handshake; the text after the last colon).
    private func libraryLogged(_ line: String) {
        guard line.hasPrefix("OpenSSL Error[0]:"), let colon = line.lastIndex(of: ":") else { return }
        let reason = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard !reason.isEmpty else { return }
        state.withLock { $0.tlsReason = reason }
    }

    private func connackReceived(_ rc: Int32) {
        guard rc == 0 else {
            let first = state.withLock { state in
                defer { state.outageSaid = true }
                return !state.outageSaid
            }
            var reason = String(cString: mosquitto_connack_string(rc))
            while reason.hasSuffix(".") { reason.removeLast() }
            if first { say(true, "mqtt: \(address) refused the connection (\(reason)); retrying") }
            return
        }
        handedOver.store(0, ordering: .relaxed)
        written.store(0, ordering: .relaxed)
        let handlers = state.withLock { state in
            state.connected = true
            state.upSinceLastFailure = true
            state.outageSaid = false
            return state.handlers
        }
        handlers?.log(false, "mqtt: connected to \(address) as \(options.logName)")
        handlers?.connected()
    }

    private func connectionEnded() {
        state.withLock { $0.connected = false }
    }

    /// libmosquitto's on_publish: a QoS 0 message written, a QoS 1 one acknowledged (PUBACK).
    private func messageWritten(_ mid: Int32) {
        written.add(1, ordering: .relaxed)
        state.withLock { $0.handlers }?.published(mid)
    }

    private func messageReceived(_ topic: String, _ payload: [UInt8]) {
        state.withLock { $0.handlers }?.message(topic, payload)
    }
}
