import Foundation
import MarqueeCore
import Testing
@testable import MarqueeControl

/// A broker connection that records what is published and lets a test play the broker's part.
final class StandInBroker: BrokerConnection, @unchecked Sendable {
    private let lock = NSLock()
    private var handlers: BrokerHandlers?
    private var connected = false
    private(set) var published: [(topic: String, payload: String, retain: Bool)] = []
    private(set) var subscriptions: [String] = []

    var address: String { "127.0.0.1:1883" }
    var isConnected: Bool { lock.withLock { connected } }
    func start(_ handlers: BrokerHandlers) { lock.withLock { self.handlers = handlers } }

    func send(_ topic: String, _ payload: [UInt8], retain: Bool, qos: Int32) -> Int32? {
        lock.withLock {
            guard connected else { return nil }
            published.append((topic, String(decoding: payload, as: UTF8.self), retain))
            return Int32(published.count)
        }
    }

    func subscribe(_ topic: String, qos: Int32) { lock.withLock { subscriptions.append(topic) } }
    func stop(last: (topic: String, payload: String, retain: Bool)?, waitingAtMost seconds: Double) {
        if let last { _ = publish(last.topic, Array(last.payload.utf8), retain: last.retain, qos: 1) }
        lock.withLock { connected = false }
    }

    /// The broker accepts the connection.
    func accept() {
        let handlers = lock.withLock {
            connected = true
            return self.handlers
        }
        handlers?.connected()
    }

    /// A client publishes on `topic`.
    func deliver(_ topic: String, _ payload: String) {
        lock.withLock { handlers }?.message(topic, Array(payload.utf8))
    }

    func messages(on topic: String, atLeast count: Int, seconds: Double = 5) -> [(payload: String, retain: Bool)] {
        let deadline = Date().addingTimeInterval(seconds)
        func now() -> [(payload: String, retain: Bool)] { lock.withLock { published.filter { $0.topic == topic }.map { ($0.payload, $0.retain) } } }
        while now().count < count, Date() < deadline { usleep(2000) }
        return now()
    }
}

/// The vocabulary's topics over a broker: the same service as the socket, its own role and source.
@Suite struct MQTTNodeTests {
    @Test func commandsRepliesStatusAndOnlineGoOnTheirTopics() throws {
        let player = StandInPlayer()
        let service = ControlService(player: player, host: StandInHost(), log: { _ in })
        let broker = StandInBroker()
        var settings = MQTTNodeSettings(topic: "marquee/lobby")
        settings.statusDebounce = 0.01
        let node = MQTTNode(settings: settings, connection: broker, service: service)
        node.start(log: { _, _ in })
        broker.accept()
        #expect(broker.subscriptions == ["marquee/lobby/command"])
        #expect(broker.messages(on: "marquee/lobby/online", atLeast: 1).first.map { $0.payload == "true" && $0.retain } == true)
        let status = try #require(broker.messages(on: "marquee/lobby/status", atLeast: 1).first)
        let document = try StatusCoding.document(status.payload)
        #expect(status.retain && document.itemCount == 2)

        broker.deliver("marquee/lobby/command", #"{"id":1,"command":"togglePlayPause"}"#)
        #expect(broker.messages(on: "marquee/lobby/reply", atLeast: 1).first?.payload == #"{"id":1,"ok":true}"#)
        #expect(player.actions == [.command(.togglePlayPause)])
        #expect(player.sources == [.mqtt(topic: "marquee/lobby/command")])
        // mqtt.allow's default is control: what the player is or writes stays the socket's.
        broker.deliver("marquee/lobby/command", #"{"id":2,"command":"quit"}"#)
        let refused = broker.messages(on: "marquee/lobby/reply", atLeast: 2).last?.payload ?? ""
        #expect(refused.contains(#""ok":false"#) && refused.contains("quit needs the admin role"))
        // An event makes the status due again.
        service.observe(.itemStarted(index: 0, url: "/media/a.mp4"), at: 1)
        node.observe(.itemStarted(index: 0, url: "/media/a.mp4"), at: 1)
        #expect(broker.messages(on: "marquee/lobby/status", atLeast: 2).count >= 2)
        node.stop(waitingAtMost: 1)
        #expect(broker.messages(on: "marquee/lobby/online", atLeast: 2).last?.payload == "false")
    }
}
