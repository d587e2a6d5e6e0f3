import Foundation
import MarqueeCore

/// `mqtt:`: the player as a node of a fleet, steered and watched through an MQTT broker. No
/// `mqtt:` section: no MQTT.
public struct MQTTConfiguration: Sendable, Equatable, Codable {
    /// `mqtt://host:port` (port 1883 by default) or `mqtts://host:port` (TLS, port 8883).
    public var url: String
    public var host: String
    public var port: Int
    public var usesTLS: Bool
    /// The topics' prefix: `TOPIC/command`, `TOPIC/reply`, `TOPIC/status`, `TOPIC/events`,
    /// `TOPIC/online`, `TOPIC/pop`. Default `marquee/HOSTNAME`.
    public var topic: String
    /// A file holding `username:password` (resolved against the config's folder); nil: anonymous.
    public var credentials: String?
    /// Whether every event (frames aside) is published on `TOPIC/events`.
    public var events: Bool
    /// `tls.caFile`: the CA certificates the broker's is checked against (mqtts only); nil: the
    /// system's (/etc/ssl/certs).
    public var caFile: String?
    /// `allow`: the role commands over MQTT get (anyone who can publish on `TOPIC/command` has it).
    /// `control` by default: no `load`, `reload`, `quit` or screenshot to disk.
    public var role: ControlRole
    /// `screenshots:`: a thumbnail of the screen published (retained) on `TOPIC/screenshot`; nil: none.
    public var screenshots: Screenshots?
    /// `proofOfPlay:`: the play ledger's records on `TOPIC/pop`, QoS 1; nil: not over MQTT.
    public var proofOfPlay: ProofOfPlay?

    /// How often the records after the broker's acknowledged place are sent, and how long a
    /// batch may wait for its PUBACK before it is sent again.
    public struct ProofOfPlay: Sendable, Equatable, Codable {
        /// Seconds between rounds while the broker keeps up (a new connection starts one at once).
        public var interval: Double = 60
        /// Seconds a batch may go unacknowledged on a live connection.
        public var timeout: Double = 30

        public init(interval: Double = 60, timeout: Double = 30) {
            self.interval = interval
            self.timeout = timeout
        }
    }

    /// How often, how large and in which format the screen's thumbnail is published.
    public struct Screenshots: Sendable, Equatable, Codable {
        /// Seconds between two pictures.
        public var every: Double = 300
        /// Pixels across; the height keeps the screen's shape.
        public var width: Int = 480
        public var format: ImageFileFormat = .jpeg

        /// From every 10 s (forty screens at 50 KB is still under 200 KB/s at the broker) to once a day.
        public static let everyRange = 10.0...86_400.0
        /// From an icon to a 4K screen's own width.
        public static let widthRange = 64...3840

        public init(every: Double = 300, width: Int = 480, format: ImageFileFormat = .jpeg) {
            self.every = every
            self.width = width
            self.format = format
        }
    }

    public static let defaultURL = "mqtt://127.0.0.1:1883"

    public init(url: String = MQTTConfiguration.defaultURL, host: String = "127.0.0.1", port: Int = 1883, usesTLS: Bool = false,
                topic: String = MQTTConfiguration.defaultTopic(), credentials: String? = nil, events: Bool = false,
                caFile: String? = nil, role: ControlRole = .control, screenshots: Screenshots? = nil, proofOfPlay: ProofOfPlay? = nil) {
        self.url = url
        self.host = host
        self.port = port
        self.usesTLS = usesTLS
        self.topic = topic
        self.credentials = credentials
        self.events = events
        self.caFile = caFile
        self.role = role
        self.screenshots = screenshots
        self.proofOfPlay = proofOfPlay
    }

    /// `marquee/` and the machine's host name.
    public static func defaultTopic() -> String {
        var name = [CChar](repeating: 0, count: 256)
        let host = gethostname(&name, name.count) == 0 ? String(cString: name) : "marquee"
        return "marquee/\(host.isEmpty ? "marquee" : host)"
    }

    /// A broker address, or why it is not one: `mqtt://host[:port]` or `mqtts://host[:port]`, no
    /// path, no user or password (those go in the credentials file).
    public static func parse(url text: String) -> Result<(host: String, port: Int, tls: Bool), URLProblem> {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            return .failure(URLProblem(message: "'\(text)' is not a URL (expected mqtt://HOST:PORT or mqtts://HOST:PORT)"))
        }
        guard scheme == "mqtt" || scheme == "mqtts" else {
            return .failure(URLProblem(message: "unsupported scheme '\(scheme)' in '\(text)' (expected mqtt or mqtts)"))
        }
        guard components.user == nil && components.password == nil else {
            return .failure(URLProblem(message: "put the user name and password in the credentials file, not in the URL"))
        }
        guard let host = components.host, !host.isEmpty else {
            return .failure(URLProblem(message: "'\(text)' names no host (expected \(scheme)://HOST:PORT)"))
        }
        guard components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil else {
            return .failure(URLProblem(message: "'\(text)' has a path or query; a broker URL is \(scheme)://HOST:PORT"))
        }
        let tls = scheme == "mqtts"
        let port = components.port ?? (tls ? 8883 : 1883)
        guard (1...65535).contains(port) else {
            return .failure(URLProblem(message: "port \(port) is out of range (1 to 65535)"))
        }
        return .success((host, port, tls))
    }

    public struct URLProblem: Error, Sendable {
        public var message: String
    }
}
