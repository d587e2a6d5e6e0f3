import Foundation

/// `cache:`: where downloaded media (and a remote config) are kept, how much of the disk they may
/// take, and how fast and how many at a time they are fetched.
public struct CacheConfiguration: Sendable, Equatable, Codable {
    /// nil: `$CACHE_DIRECTORY` (systemd's `CacheDirectory=`) or `/var/cache/marquee`.
    public var directory: String?
    /// Bytes the cache may hold; files the playlist does not name are evicted, least recently
    /// used first, to stay under it. nil: no bound.
    public var maxBytes: Int64?
    /// Bytes per second for all downloads together; nil: as fast as the link goes.
    public var maxRate: Int64?
    /// Downloads at a time: 1 or 2.
    public var downloads: Int

    public static let defaultDirectory = "/var/cache/marquee"
    public static let downloadsRange: ClosedRange<Int> = 1...2

    public init(directory: String? = nil, maxBytes: Int64? = nil, maxRate: Int64? = nil, downloads: Int = 2) {
        self.directory = directory
        self.maxBytes = maxBytes
        self.maxRate = maxRate
        self.downloads = downloads
    }

    /// The folder in use: the configured one, else systemd's, else the default.
    public func resolvedDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let directory { return directory }
        // systemd sets CACHE_DIRECTORY from CacheDirectory= (several are colon-separated).
        if let systemd = environment["CACHE_DIRECTORY"]?.split(separator: ":").first, !systemd.isEmpty {
            return String(systemd)
        }
        return Self.defaultDirectory
    }

    /// `500000000`, `500M`, `2G`, `1.5GB`, `800 MiB`, `512k`: binary multiples (K = 1024), as df
    /// and du print them. A rate takes the same spelling, with an optional `/s`.
    public static func parseBytes(_ text: String, rate: Bool = false) -> Int64? {
        var rest = text.trimmingCharacters(in: .whitespaces).lowercased()
        if rate, rest.hasSuffix("/s") { rest.removeLast(2) }
        rest = rest.trimmingCharacters(in: .whitespaces)
        for suffix in ["ib", "b"] where rest.hasSuffix(suffix) {
            rest.removeLast(suffix.count)
            break
        }
        var multiplier: Double = 1
        if let last = rest.last, let power = ["k": 1, "m": 2, "g": 3, "t": 4][String(last)] {
            multiplier = pow(1024, Double(power))
            rest.removeLast()
        }
        guard let number = Double(rest.trimmingCharacters(in: .whitespaces)), number.isFinite, number > 0 else { return nil }
        let bytes = number * multiplier
        guard bytes >= 1, bytes < Double(Int64.max) else { return nil }
        return Int64(bytes.rounded())
    }
}
