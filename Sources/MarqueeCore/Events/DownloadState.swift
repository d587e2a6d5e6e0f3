/// Where a cached item's download is: `downloadProgress` events and the status say it.
public enum DownloadState: String, Sendable, Equatable, Codable {
    /// Bytes are arriving (or it waits for a retry).
    case downloading
    /// Verified (size, and sha256 when the config gives one) and renamed into the cache.
    case cached
    /// Failed for good: the item is skipped until the config changes.
    case failed
}
