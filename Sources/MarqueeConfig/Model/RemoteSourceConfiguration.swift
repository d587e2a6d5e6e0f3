import Foundation
import MarqueeCore

/// `source:`: the playlist comes from an HTTP(S) server, polled every `interval` seconds (with
/// jitter), cached with its media so the screen plays on without the network. The local file is
/// then a bootstrap: it keeps the device's own settings (display, sound card, keys, cache).
public struct RemoteSourceConfiguration: Sendable, Equatable, Codable {
    public var url: URL
    /// Seconds between polls, before jitter.
    public var interval: Double
    /// A file holding `username:password` for the server (Basic), resolved against the config's
    /// folder; sent only to the config's own host, never logged.
    public var credentials: String?
    /// A PEM bundle of CAs to trust for the server (a private CMS's own CA).
    public var caFile: String?

    public static let defaultInterval = 60.0
    public static let intervalRange: ClosedRange<Double> = 5...86_400

    public init(url: URL, interval: Double = RemoteSourceConfiguration.defaultInterval,
                credentials: String? = nil, caFile: String? = nil) {
        self.url = url
        self.interval = interval
        self.credentials = credentials
        self.caFile = caFile
    }

    /// An http(s) URL with a host, or why not: `file:` and other schemes are refused, since a
    /// config fetched from them would bypass the cache's checks.
    public static func parse(url text: String) -> Result<URL, MQTTConfiguration.URLProblem> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let scheme = URLScheme.of(trimmed), scheme != "http" && scheme != "https" {
            return .failure(MQTTConfiguration.URLProblem(message: "unsupported scheme '\(scheme)' for a config source (expected http or https)"))
        }
        guard let url = URL(string: trimmed), url.scheme != nil, let host = url.host, !host.isEmpty else {
            return .failure(MQTTConfiguration.URLProblem(message: "'\(CredentialRedaction.redacted(text))' is not an http(s) URL"))
        }
        return .success(url)
    }
}
