import Foundation
import MarqueeCore
import Yams

extension ConfigurationDecoder {
    static let mqttKeys = ["url", "topic", "credentials", "events", "tls", "allow", "screenshots", "proofOfPlay"]
    static let mqttTLSKeys = ["caFile"]
    static let mqttScreenshotKeys = ["every", "width", "format"]
    static let mqttProofOfPlayKeys = ["interval", "timeout"]

    /// `mqtt: {url: mqtt://broker:1883, topic: marquee/lobby, credentials: FILE, events: false,
    /// tls: {caFile: PATH}, allow: [admin], screenshots: true, proofOfPlay: true}`; paths are relative
    /// to the config's folder.
    mutating func decodeMQTT(_ node: Node) -> MQTTConfiguration {
        var mqtt = MQTTConfiguration()
        guard let fields = fields(of: node, in: "mqtt", allowed: Self.mqttKeys) else { return mqtt }
        var urlIsValid = true
        if let node = fields["url"]?.value, let text = string(node, expected: "a broker URL such as mqtt://127.0.0.1:1883") {
            switch MQTTConfiguration.parse(url: text) {
            case .success(let address):
                mqtt.url = text
                mqtt.host = address.host
                mqtt.port = address.port
                mqtt.usesTLS = address.tls
            case .failure(let problem):
                urlIsValid = false
                log.error(at: SourcePosition(of: node), problem.message)
            }
        }
        if let node = fields["topic"]?.value, let text = string(node, expected: "a topic such as marquee/lobby") {
            if text.isEmpty || text.hasPrefix("/") || text.hasSuffix("/") {
                log.error(at: SourcePosition(of: node), "topic '\(text)' must not be empty or begin or end with '/'")
            } else if text.contains("+") || text.contains("#") {
                log.error(at: SourcePosition(of: node), "topic '\(text)' must not hold the wildcards '+' or '#'")
            } else {
                mqtt.topic = text
            }
        }
        if let node = fields["credentials"]?.value, let text = string(node, expected: "a file holding username:password") {
            if text.isEmpty {
                log.error(at: SourcePosition(of: node), "expected a file holding username:password, found an empty string")
            } else {
                mqtt.credentials = resolvedPath(text)
            }
        }
        if let node = fields["events"]?.value, let events = bool(node) {
            mqtt.events = events
        }
        if let node = fields["allow"]?.value {
            // A role, or a list of them: the highest one listed is granted.
            let nodes: [Node] = if case .sequence(let sequence) = node { Array(sequence) } else { [node] }
            let roles: [ControlRole] = nodes.compactMap { choice($0, named: "control role") }
            if roles.count == nodes.count, let highest = roles.max() { mqtt.role = highest }
            if nodes.isEmpty { log.error(at: SourcePosition(of: node), "expected a control role (observe, control or admin), found an empty list") }
        }
        if let tls = fields["tls"], let tlsFields = self.fields(of: tls.value, in: "mqtt.tls", allowed: Self.mqttTLSKeys) {
            if let node = tlsFields["caFile"]?.value, let text = string(node, expected: "a file of CA certificates (PEM)") {
                if text.isEmpty {
                    log.error(at: SourcePosition(of: node), "expected a file of CA certificates (PEM), found an empty string")
                } else {
                    mqtt.caFile = resolvedPath(text)
                }
            }
            if urlIsValid && !mqtt.usesTLS && !tlsFields.isEmpty {
                log.error(at: tls.keyPosition, "'tls' settings need an mqtts:// url (the url is \(mqtt.url))")
            }
        }
        if let node = fields["screenshots"]?.value {
            mqtt.screenshots = decodeScreenshots(node)
        }
        if let node = fields["proofOfPlay"]?.value {
            mqtt.proofOfPlay = decodeProofOfPlayOverMQTT(node)
        }
        return mqtt
    }

    /// `proofOfPlay: {interval: 60, timeout: 30}`, or `true` for those defaults.
    private mutating func decodeProofOfPlayOverMQTT(_ node: Node) -> MQTTConfiguration.ProofOfPlay? {
        if case .scalar = node, !isNothing(node) {
            return bool(node) == true ? MQTTConfiguration.ProofOfPlay() : nil
        }
        guard let fields = fields(of: node, in: "mqtt.proofOfPlay", allowed: Self.mqttProofOfPlayKeys) else { return nil }
        var sending = MQTTConfiguration.ProofOfPlay()
        decodePace(fields, interval: &sending.interval, timeout: &sending.timeout)
        return sending
    }

    /// `screenshots: {every: 300, width: 480, format: jpeg}`, or `true` for those defaults.
    private mutating func decodeScreenshots(_ node: Node) -> MQTTConfiguration.Screenshots? {
        typealias Screenshots = MQTTConfiguration.Screenshots
        if case .scalar = node, !isNothing(node) {
            return bool(node) == true ? Screenshots() : nil
        }
        guard let fields = fields(of: node, in: "mqtt.screenshots", allowed: Self.mqttScreenshotKeys) else { return nil }
        var screenshots = Screenshots()
        if let node = fields["every"]?.value, let seconds = number(node) {
            if Screenshots.everyRange.contains(seconds) {
                screenshots.every = seconds
            } else {
                log.error(at: SourcePosition(of: node), "every \(Self.plain(seconds)) s is out of range (expected 10 to 86400 seconds)")
            }
        }
        if let node = fields["width"]?.value, let width = wholeNumber(node) {
            if Screenshots.widthRange.contains(width) {
                screenshots.width = width
            } else {
                log.error(at: SourcePosition(of: node), "width \(width) is out of range (expected 64 to 3840 pixels)")
            }
        }
        if let node = fields["format"]?.value, let format: ImageFileFormat = choice(node, named: "image format") {
            screenshots.format = format
        }
        return screenshots
    }

    private func resolvedPath(_ text: String) -> String {
        URL(fileURLWithPath: text, relativeTo: baseDirectory).standardizedFileURL.path
    }
}
