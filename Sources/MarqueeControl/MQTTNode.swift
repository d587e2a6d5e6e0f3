import Dispatch
import Foundation
import MarqueeCore

/// What `MQTTNode` needs: the topic prefix, whether events are published and the role of
/// whoever publishes commands. How to reach the broker is the connection's business.
public struct MQTTNodeSettings: Sendable {
    /// `marquee/lobby`: the prefix of every topic.
    public var topic: String
    public var publishesEvents = false
    /// The role of whoever publishes on `TOPIC/command` (config `mqtt.allow`).
    public var role: ControlRole = .control
    /// The retained status is published at most once per `statusDebounce` after a change, and
    /// every `statusInterval` seconds in any case.
    public var statusDebounce = 0.25
    public var statusInterval = 30.0
    /// `mqtt.screenshots`: each screen's picture on `TOPIC/screenshot[/NAME]`; nil: none.
    public var screenshots: ScreenshotPublishing?
    /// Also told, on the network thread, each connection the broker accepts and each message it
    /// acknowledged (by id): what proof of play over the same connection waits for.
    public var whenConnected: @Sendable () -> Void = {}
    public var whenPublished: @Sendable (_ id: Int32) -> Void = { _ in }

    public init(topic: String) {
        self.topic = topic
    }

    /// `TOPIC/online`: `true` while connected; the connection's last will says `false`.
    public var onlineTopic: String { "\(topic)/online" }
}

/// The control vocabulary over MQTT: one more transport of the control service. Each message on
/// `TOPIC/command` is one request as on the control socket (same parser, same service), sent with
/// the source `mqtt`, its reply on `TOPIC/reply`; the status object is retained on
/// `TOPIC/status` (on changes, at most a few times a second, and every 30 s); events go to
/// `TOPIC/events` when asked; `TOPIC/online` is `true` (retained) while connected and the
/// broker's last will `false` when the player dies, and `false` on a clean stop; with
/// `screenshots`, a thumbnail of each screen is retained on `TOPIC/screenshot[/NAME]`.
///
/// Threads: commands arrive on the network thread; publishing happens on a queue of its own, so
/// whoever sends (the present thread with a seek's reply, the event thread) only queues a block.
public final class MQTTNode: ControlTransport, @unchecked Sendable {
    private let client: any BrokerConnection
    private let service: ControlService
    private let settings: MQTTNodeSettings
    private let peer: ControlPeer
    private let queue = DispatchQueue(label: "marquee.mqtt.publish")
    /// On `queue`: a status publish is already due.
    private var statusDue = false
    private var timer: DispatchSourceTimer?
    /// With `settings.screenshots`: made at `start`, when the log is known.
    private var screenshots: ScreenshotPublisher?

    public var commandTopic: String { "\(settings.topic)/command" }
    public var replyTopic: String { "\(settings.topic)/reply" }
    public var statusTopic: String { "\(settings.topic)/status" }
    public var eventsTopic: String { "\(settings.topic)/events" }
    public var onlineTopic: String { settings.onlineTopic }

    /// The longest request taken, as on the control socket.
    public static let maxRequestBytes = 65536

    /// `connection` is made with `settings.onlineTopic` `false` as its last will.
    public init(settings: MQTTNodeSettings, connection: any BrokerConnection, service: ControlService) {
        self.settings = settings
        self.service = service
        client = connection
        peer = ControlPeer(id: ControlPeer.allocateID(), source: .mqtt(topic: "\(settings.topic)/command"), role: settings.role)
    }

    /// `127.0.0.1:1883`
    public var address: String { client.address }

    /// Whether the broker has accepted the current connection.
    public var isConnected: Bool { client.isConnected }

    public func start(log: @escaping @Sendable (_ warning: Bool, _ line: String) -> Void) {
        service.connected(peer, via: self)
        // Before the connection can call `connected`, which asks for the first picture.
        let screenshots = settings.screenshots.map { publishing in
            ScreenshotPublisher(settings: publishing, topic: settings.topic, publish: { [weak self] topic, image in
                self?.queue.async { [weak self] in
                    // A picture taken during an outage is not queued: the next one will be fresher.
                    guard let self, client.isConnected else { return }
                    client.publish(topic, image, retain: true, qos: 1)
                }
            }, log: log)
        }
        screenshots?.start()
        queue.sync { self.screenshots = screenshots }
        client.start(BrokerHandlers(
            connected: { [weak self, whenConnected = settings.whenConnected] in
                self?.connected()
                whenConnected()
            },
            message: { [weak self] topic, payload in self?.received(topic, payload) },
            log: log,
            published: settings.whenPublished))
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + settings.statusInterval, repeating: settings.statusInterval)
        timer.setEventHandler { [weak self] in self?.publishStatus() }
        timer.resume()
        queue.sync { self.timer = timer }
    }

    /// Says `false` on `TOPIC/online` and disconnects, waiting at most `seconds`.
    public func stop(waitingAtMost seconds: Double) {
        let screenshots = queue.sync {
            timer?.cancel()
            timer = nil
            return self.screenshots
        }
        screenshots?.stop()
        client.stop(last: (onlineTopic, "false", true), waitingAtMost: seconds)
        service.disconnected(peer)
    }

    /// Every event the player posts, on the event delivery thread: frames are left out; the rest
    /// go to `TOPIC/events` when asked, and each one makes the status due.
    public func observe(_ event: PlayerEvent, at seconds: Double) {
        if case .frame = event { return }
        let publishesEvents = settings.publishesEvents
        queue.async { [self] in
            if publishesEvents, client.isConnected {
                client.publish(eventsTopic, Array(EventLogRecord(secondsSinceStart: seconds, event: event).jsonLine().utf8), retain: false)
            }
            guard !statusDue else { return }
            statusDue = true
            queue.asyncAfter(deadline: .now() + settings.statusDebounce) { [self] in
                statusDue = false
                publishStatus()
            }
        }
    }

    /// A reply (or an event a subscription over MQTT asked for) to `TOPIC/reply`.
    public func send(_ line: String, to peer: Int) {
        queue.async { [self] in
            client.publish(replyTopic, Array(line.utf8), retain: false)
        }
    }

    private func connected() {
        client.subscribe(commandTopic)
        queue.async { [self] in
            client.publish(onlineTopic, Array("true".utf8), retain: true, qos: 1)
            publishStatus()
            screenshots?.connected()
        }
    }

    private func received(_ topic: String, _ payload: [UInt8]) {
        guard topic == commandTopic else { return }
        if payload.count > Self.maxRequestBytes {
            service.handle(.lineTooLong(limit: Self.maxRequestBytes), from: peer)
        } else {
            service.handle(.line(String(decoding: payload, as: UTF8.self)), from: peer)
        }
    }

    /// On `queue`.
    private func publishStatus() {
        guard client.isConnected else { return }
        client.publish(statusTopic, Array(service.statusLine().utf8), retain: true)
    }
}
