import Foundation
import MarqueeCore

/// `mqtt.proofOfPlay`: each batch one message on `TOPIC/pop`, QoS 1, not retained, over the MQTT
/// node's connection. The broker's PUBACK for the message's id is the acknowledgement, nothing
/// less: a message handed to the library may still die with the connection. Disconnected, nothing
/// goes (the client says the outage itself); a batch whose PUBACK does not come within `timeout`
/// is a failure, and is sent again after the back-off (the ids let the receiver drop the repeat).
public final class MQTTLedgerTransport: LedgerTransport, @unchecked Sendable {
    public static let cursorFileName = "upload-mqtt.json"

    private let connection: any BrokerConnection
    private let topic: String
    private let timeout: Double
    /// Its waits run on the monotonic clock: a wall clock stepped during a wait neither ends it
    /// early nor stretches it.
    private let condition = MonotonicCondition()
    /// While a batch waits: the ids the broker acknowledged meanwhile (collected from before the
    /// send, since a PUBACK may overtake the return of `send`); nil between batches.
    private var acknowledged: Set<Int32>?

    /// How often a wait looks at the connection: a lost one ends it at once, not at the timeout.
    private static let connectionCheck = 0.2

    /// `topic`: the node's prefix (`marquee/lobby`); the records go to `TOPIC/pop`.
    public init(connection: any BrokerConnection, topic: String, timeout: Double = 30) {
        self.connection = connection
        self.topic = "\(topic)/pop"
        self.timeout = timeout
    }

    public var destination: String { "\(topic) on \(connection.address)" }
    public var cursorFile: String { Self.cursorFileName }

    /// The connection's `published` handler: the broker has the message `id` (called on the network thread).
    public func published(_ id: Int32) {
        condition.withLock {
            guard acknowledged != nil else { return }
            acknowledged?.insert(id)
            condition.broadcast()
        }
    }

    public func deliver(_ body: [UInt8]) throws(LedgerDeliveryError) {
        guard connection.isConnected else { throw .unavailable }
        condition.withLock { acknowledged = [] }
        defer { condition.withLock { acknowledged = nil } }
        guard let id = connection.send(topic, body, retain: false, qos: 1) else { throw .unavailable }
        let deadline = ContinuousClock.now + .seconds(timeout)
        let outcome: LedgerDeliveryError? = condition.withLock {
            while acknowledged?.contains(id) != true {
                guard ContinuousClock.now < deadline else {
                    return .failed("the broker did not acknowledge a batch within \(Self.plain(timeout)) s")
                }
                // The connection died with the batch unacknowledged: it is sent again once it is back.
                guard connection.isConnected else { return .unavailable }
                condition.wait(until: min(deadline, ContinuousClock.now + .seconds(Self.connectionCheck)))
            }
            return nil
        }
        if let outcome { throw outcome }
    }

    private static func plain(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
