import Foundation

/// `proofOfPlay:`: the play ledger, one hash-chained JSON line per item shown. A mapping
/// (`{dir, maxBytes, keepDays}`, or empty) or `true` turns it on; `false` turns it off. Not said:
/// on under systemd's `StateDirectory=` (the service), off for an ad-hoc `marquee play`.
public struct ProofOfPlayConfiguration: Sendable, Equatable, Codable {
    /// nil: the default rule above.
    public var enabled: Bool?
    /// nil: `$STATE_DIRECTORY/ledger`, else `/var/lib/marquee/ledger`.
    public var directory: String?
    /// Bytes the ledger's files may take together; the oldest whole days go first.
    public var maxBytes: Int64
    /// Days of files kept (UTC days, counted from the newest record's).
    public var keepDays: Int
    /// `upload:`: where the records are POSTed; nil: they stay on the device.
    public var upload: Upload?

    /// `proofOfPlay.upload: {url, credentials, caFile, interval}`.
    public struct Upload: Sendable, Equatable, Codable {
        public var url: URL
        /// A file holding `username:password` (Basic), read at start, never logged.
        public var credentials: String?
        public var caFile: String?
        /// Seconds between rounds while the receiver keeps up.
        public var interval: Double
        /// Seconds a request may go without progress (connecting included) before it is given up.
        public var timeout: Double

        public static let intervalRange: ClosedRange<Double> = 1...86_400
        public static let timeoutRange: ClosedRange<Double> = 1...300

        public init(url: URL, credentials: String? = nil, caFile: String? = nil, interval: Double = 60, timeout: Double = 30) {
            self.timeout = timeout
            self.url = url
            self.credentials = credentials
            self.caFile = caFile
            self.interval = interval
        }
    }

    public static let defaultMaxBytes: Int64 = 64 << 20
    public static let defaultKeepDays = 90
    public static let keepDaysRange: ClosedRange<Int> = 1...3660
    public static let defaultDirectory = "/var/lib/marquee/ledger"

    public init(enabled: Bool? = nil, directory: String? = nil, maxBytes: Int64 = Self.defaultMaxBytes, keepDays: Int = Self.defaultKeepDays) {
        self.enabled = enabled
        self.directory = directory
        self.maxBytes = maxBytes
        self.keepDays = keepDays
    }

    /// Where the ledger is written, or nil when it is off: said on, or not said and run by the
    /// service (systemd sets `STATE_DIRECTORY` from `StateDirectory=`).
    public func resolvedDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first.map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        switch enabled {
        case false?: return nil
        case nil where state == nil: return nil
        default: break
        }
        if let directory { return directory }
        if let state { return (state as NSString).appendingPathComponent("ledger") }
        return Self.defaultDirectory
    }
}
