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
