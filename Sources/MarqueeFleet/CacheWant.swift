import Foundation
import MarqueeCore

/// One http(s) media item a config wants on the device: where, the hash the config gives for it
/// (verified before the file may play), and how to reach the server.
public struct CacheWant: Sendable, Equatable {
    public var url: URL
    /// The config's `sha256:`, lower-case hex; nil when the config gives none.
    public var sha256: String?
    /// The config's `size:` in bytes: the download is cut there and must end there.
    public var size: Int64?
    public var security: HTTPSecurity

    public init(url: URL, sha256: String? = nil, size: Int64? = nil, security: HTTPSecurity = HTTPSecurity()) {
        self.url = url
        self.sha256 = sha256?.lowercased()
        self.size = size
        self.security = security
    }
}

/// How one wanted item ended.
public enum CacheFillResult: Sendable, Equatable {
    /// The verified file's path, in media/.
    case cached(path: String)
    /// Failed for good (until the next `fill`): the one-line error, naming the URL (password
    /// redacted) and the cause, as it was logged.
    case failed(String)

    public var path: String? {
        if case .cached(let path) = self { path } else { nil }
    }
}

/// A download's progress: the bytes of its part file so far and the total when announced.
public struct CacheFillProgress: Sendable, Equatable {
    public var url: URL
    public var bytesOnDisk: Int64
    public var expectedTotal: Int64?

    public init(url: URL, bytesOnDisk: Int64, expectedTotal: Int64?) {
        self.url = url
        self.bytesOnDisk = bytesOnDisk
        self.expectedTotal = expectedTotal
    }
}
