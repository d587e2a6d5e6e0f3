/// A connection to a message broker (MQTT), as the control vocabulary's broker transport uses it:
/// started once with its handlers, publishing without ever waiting for the network, stopped with
/// a last message. The libmosquitto client is the real one; the transport does not import it.
public protocol BrokerConnection: AnyObject, Sendable {
    /// `127.0.0.1:1883`
    var address: String { get }
    /// Whether the broker has accepted the current connection.
    var isConnected: Bool { get }
    /// Connects (and reconnects) on a thread of the connection's own; the handlers are called there.
    func start(_ handlers: BrokerHandlers)
    /// Hands one message over or drops it (nil); never waits for the broker. Says the id the
    /// message goes by, which `BrokerHandlers.published` names once it has left: for QoS 1, when
    /// the broker acknowledged it (its PUBACK), which is what proof of play waits for.
    @discardableResult
    func send(_ topic: String, _ payload: [UInt8], retain: Bool, qos: Int32) -> Int32?
    func subscribe(_ topic: String, qos: Int32)
    /// Publishes `last` if connected, disconnects, and waits at most `seconds`.
    func stop(last: (topic: String, payload: String, retain: Bool)?, waitingAtMost seconds: Double)
}

/// What a broker connection calls, on its network thread.
public struct BrokerHandlers: Sendable {
    /// The broker accepted the connection (first time or again): subscribe and say hello here.
    public var connected: @Sendable () -> Void
    public var message: @Sendable (_ topic: String, _ payload: [UInt8]) -> Void
    public var log: @Sendable (_ warning: Bool, _ line: String) -> Void
    /// A message `send` handed over has left: written (QoS 0) or acknowledged by the broker (QoS 1).
    public var published: @Sendable (_ id: Int32) -> Void

    public init(connected: @escaping @Sendable () -> Void,
                message: @escaping @Sendable (String, [UInt8]) -> Void,
                log: @escaping @Sendable (Bool, String) -> Void,
                published: @escaping @Sendable (Int32) -> Void = { _ in }) {
        self.connected = connected
        self.message = message
        self.log = log
        self.published = published
    }
}

extension BrokerConnection {
    /// `send` for whoever needs no id: whether the message was handed over.
    @discardableResult
    public func publish(_ topic: String, _ payload: [UInt8], retain: Bool, qos: Int32) -> Bool {
        send(topic, payload, retain: retain, qos: qos) != nil
    }

    /// At most once (QoS 0): status and events are sent again anyway.
    @discardableResult
    public func publish(_ topic: String, _ payload: [UInt8], retain: Bool) -> Bool {
        publish(topic, payload, retain: retain, qos: 0)
    }

    /// At least once (QoS 1): a command must not be lost on the way in.
    public func subscribe(_ topic: String) {
        subscribe(topic, qos: 1)
    }
}
