/// How to reach the broker and what to leave behind: plain values, no libmosquitto type.
public struct MQTTClientOptions: Sendable {
    public var host: String
    public var port: Int
    public var clientID: String
    /// What the journal calls this client (`connected to 127.0.0.1:1883 as marquee/lobby`).
    public var logName: String
    public var keepalive: Int = 30
    public var username: String?
    public var password: String?
    public var usesTLS = false
    /// PEM CA certificates for TLS; nil: the system's in /etc/ssl/certs.
    public var caFile: String?
    /// The last will: published by the broker when the connection dies without a DISCONNECT.
    public var will: (topic: String, payload: String, retain: Bool)?
    /// The back-off between attempts: doubled after each failure, from `minimumRetryDelay` up to
    /// `maximumRetryDelay`, back to the minimum once connected.
    public var minimumRetryDelay = 1.0
    public var maximumRetryDelay = 15.0
    /// Messages handed to the library and not yet written to the socket; past this a slow or
    /// flooded broker costs messages, never memory or time.
    public var maxUnsentMessages = 1024

    public init(host: String, port: Int, clientID: String) {
        self.host = host
        self.port = port
        self.clientID = clientID
        self.logName = clientID
    }
}
