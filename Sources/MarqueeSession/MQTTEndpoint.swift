import Foundation
import Logging
import MarqueeConfig
import MarqueeControl
import MarqueeCore
import MarqueeLedger
import MarqueePlayer

/// The MQTT side of one `marquee play` (config `mqtt:`): the broker's address and topic, the
/// credentials file read once at start, and the node that carries the control service's
/// vocabulary over the broker. A credentials file that cannot be read is one error line and no
/// MQTT at all (connecting without the credentials the operator meant would only be refused, or
/// worse, let in with another user's rights); playback goes on.
package final class MQTTEndpoint: @unchecked Sendable {
    package let service: ControlService
    private let node: MQTTNode
    private let logger: Logger

    /// How long a quit waits for `online` `false` and the DISCONNECT to leave.
    package static let quitGrace = 0.5

    private init(service: ControlService, node: MQTTNode, logger: Logger) {
        self.service = service
        self.node = node
        self.logger = logger
    }

    /// Nil without `mqtt:`, or after one error line. `service` is the control socket's when there
    /// is one (one service, two transports), else one of its own. `screens`: the screens whose
    /// picture `mqtt.screenshots` publishes, by name with `displays:` (the main one among them).
    /// `ledger`: where `mqtt.proofOfPlay` takes its records from.
    package static func make(_ configuration: MQTTConfiguration?, player: QueuePlayer, screens: [ScreenshotPublishing.Screen],
                     addressable: [ScreenshotPublishing.Screen] = [], host: ControlHost, backends: Backends, service existing: ControlService?, ledger: PlayLedgerSink?,
                     logger: Logger) -> MQTTEndpoint? {
        guard let configuration else { return nil }
        var settings = MQTTNodeSettings(topic: configuration.topic)
        settings.publishesEvents = configuration.events
        settings.role = configuration.role
        settings.screenshots = configuration.screenshots.map { screenshots in
            ScreenshotPublishing(every: screenshots.every, width: screenshots.width, format: screenshots.format, screens: screens,
                                 encode: { [image = backends.image] canvas, width, format in try image(canvas, width, format) })
        }
        // The broker says the player is gone when the connection dies without a goodbye.
        var request = BrokerRequest(configuration: configuration, username: nil, password: nil, willTopic: settings.onlineTopic)
        if let path = configuration.credentials {
            switch CredentialsFile.read(path) {
            case .success(let (username, password)):
                request.username = username
                request.password = password
                if let exposure = CredentialsFile.exposure(path) { logger.warning("mqtt: credentials \(exposure)") }
                if !configuration.usesTLS {
                    logger.warning("mqtt: \(configuration.url): the credentials go over plain MQTT, readable by anyone on the network; use mqtts://")
                }
            case .failure(let problem):
                logger.error("mqtt: credentials \(path): \(problem.message); playing on without MQTT")
                return nil
            }
        }
        let service = existing ?? ControlService(player: player, host: host, screens: addressable, log: { [logger] in logger.info("\($0)") })
        do {
            let connection = try backends.broker(request)
            if let sending = configuration.proofOfPlay {
                sendProofOfPlay(sending, over: connection, settings: &settings, ledger: ledger, logger: logger)
            }
            let node = MQTTNode(settings: settings, connection: connection, service: service)
            return MQTTEndpoint(service: service, node: node, logger: logger)
        } catch {
            logger.error("mqtt: \(error); playing on without MQTT")
            return nil
        }
    }

    /// `mqtt.proofOfPlay`: the ledger's records on `TOPIC/pop` over the node's connection, each
    /// batch acknowledged by the broker's PUBACK, a round at once on each connection.
    private static func sendProofOfPlay(_ sending: MQTTConfiguration.ProofOfPlay, over connection: any BrokerConnection,
                                        settings: inout MQTTNodeSettings, ledger: PlayLedgerSink?, logger: Logger) {
        guard let ledger else {
            logger.warning("mqtt: proofOfPlay needs the play ledger (proofOfPlay: in the config, or --ledger DIR); no records are sent")
            return
        }
        let transport = MQTTLedgerTransport(connection: connection, topic: settings.topic, timeout: sending.timeout)
        let uploader = ledger.send(through: transport, settings: LedgerUploader.Settings(interval: sending.interval))
        settings.whenConnected = { uploader.nudge() }
        settings.whenPublished = { transport.published($0) }
    }

    package func start() {
        node.start(log: { [logger] warning, line in warning ? logger.warning("\(line)") : logger.info("\(line)") })
    }

    /// Whether the broker has accepted the connection now (`marquee_mqtt_connected`).
    package var isConnected: Bool { node.isConnected }

    package func observe(_ event: PlayerEvent, at seconds: Double) {
        node.observe(event, at: seconds)
    }

    package func stop() {
        node.stop(waitingAtMost: Self.quitGrace)
    }
}
