/// The way a batch of ledger lines reaches a receiver, for `LedgerUploader`: an HTTP POST answered
/// 2xx (`HTTPLedgerTransport`) or an MQTT message the broker acknowledged (`MQTTLedgerTransport`).
/// The uploader owns what the two share: which records are next, the cursor on disk, the back-off.
public protocol LedgerTransport: Sendable {
    /// Where the records go, as the journal names it (credentials redacted).
    var destination: String { get }
    /// The file beside the day files that keeps how far this receiver acknowledged the ledger.
    var cursorFile: String { get }
    /// Sends `body` (newline-delimited JSON, the lines as stored) and returns once the receiver
    /// has acknowledged it; throws when it has not. Blocks its caller, the uploader's own thread.
    func deliver(_ body: [UInt8]) throws(LedgerDeliveryError)
}

public enum LedgerDeliveryError: Error, Equatable, Sendable {
    /// The way is down and says so itself (the MQTT client's own `lost the connection` line): no
    /// warning, no back-off; the records wait, and the next round (or a nudge) tries again.
    case unavailable
    /// The receiver refused, failed or did not answer in time: one warning per outage, and back-off.
    case failed(String)
}
