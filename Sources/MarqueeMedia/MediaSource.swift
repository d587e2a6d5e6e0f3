import Foundation
import MarqueeCore

/// What Marquee may open: a local file, or an http(s) resource. Nothing else reaches FFmpeg.
///
/// FFmpeg understands dozens of URL schemes, some of which read local files by other names
/// (`concat:`, `subfile:`, `data:`, `pipe:`) or reach other hosts (`rtmp:`, `ftp:`). A signage
/// device plays what its config names, so anything but a path, `file:`, `http:` or `https:` is
/// refused here, before FFmpeg sees it; and each source carries the protocol whitelist FFmpeg
/// enforces on every nested open too (HLS segments, redirects, concat entries).
public enum MediaSource: Sendable, Hashable, CustomStringConvertible {
    /// A local file; relative paths are relative to the process's working directory.
    case file(path: String)
    /// An `http:` or `https:` URL, as written.
    case remote(url: String)

    /// Reads a path, a `file:` URL, or an http(s) URL; throws for any other scheme or a malformed URL.
    public init(parsing text: String) throws(MediaOpenError) {
        guard !text.isEmpty else { throw MediaOpenError(url: text, reason: .invalidURL) }
        guard let scheme = URLScheme.of(text) else {
            self = .file(path: text)
            return
        }
        switch scheme {
        case "file":
            guard let url = URL(string: text), url.isFileURL, !url.path.isEmpty else {
                throw MediaOpenError(url: text, reason: .invalidURL)
            }
            if let host = url.host, !host.isEmpty, host != "localhost" {
                throw MediaOpenError(url: text, reason: .invalidURL)
            }
            self = .file(path: url.path)
        case "http", "https":
            guard let url = URL(string: text), let host = url.host, !host.isEmpty else {
                throw MediaOpenError(url: text, reason: .invalidURL)
            }
            self = .remote(url: text)
        default:
            throw MediaOpenError(url: text, reason: .unsupportedScheme(scheme))
        }
    }

    /// The path or URL, as used in messages and `Asset.url`.
    public var description: String {
        switch self {
        case .file(let path): path
        case .remote(let url): url
        }
    }

    public var isRemote: Bool {
        if case .remote = self { return true }
        return false
    }

    /// The string handed to `avformat_open_input`. Paths get an explicit `file:` so that a name with
    /// a colon (`clip:1.mp4`) is never read as a URL scheme.
    var ffmpegURL: String {
        switch self {
        case .file(let path): "file:" + path
        case .remote(let url): url
        }
    }

    /// The protocols FFmpeg may use for this source and everything it opens on the source's behalf.
    /// A remote playlist can therefore never make FFmpeg read a local file (or use any other
    /// protocol), and a local playlist can never make it reach the network.
    var protocolWhitelist: String {
        switch self {
        case .file: "file"
        case .remote: "http,https,tcp,tls"
        }
    }
}
