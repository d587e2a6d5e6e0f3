import Foundation
import MarqueeCore

/// Where an item's media lives: a local file (always an absolute path once loaded) or an
/// http(s) resource. Other schemes are refused on purpose: FFmpeg would happily open
/// `concat:`, `subfile:` or `data:` URLs, which a hand-edited signage config should never reach.
public enum MediaLocation: Sendable, Hashable, CustomStringConvertible {
    case file(path: String)
    case remote(URL)

    /// Schemes FFmpeg should be asked to stream.
    public static let remoteSchemes: Set<String> = ["http", "https"]

    /// Reads a config's `url` value (or a command-line media argument). Paths and relative
    /// references resolve against `baseDirectory` (the config's folder), not the working directory.
    public static func resolve(_ text: String, relativeTo baseDirectory: URL) -> Result<MediaLocation, MediaLocationError> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return .failure(MediaLocationError(message: "url is empty")) }

        guard let scheme = URLScheme.of(trimmed) else {
            let url = URL(fileURLWithPath: trimmed, relativeTo: baseDirectory).standardizedFileURL
            return .success(.file(path: url.path))
        }
        switch scheme {
        case "file":
            guard let url = URL(string: trimmed, relativeTo: baseDirectory)?.absoluteURL else {
                return .failure(MediaLocationError(message: "invalid file URL '\(trimmed)'"))
            }
            if let host = url.host, !host.isEmpty, host != "localhost" {
                return .failure(MediaLocationError(message: "file URL '\(trimmed)' names a host; only local files can be played"))
            }
            return .success(.file(path: url.standardizedFileURL.path))
        case _ where remoteSchemes.contains(scheme):
            guard let url = URL(string: trimmed), let host = url.host, !host.isEmpty else {
                return .failure(MediaLocationError(message: "invalid URL '\(trimmed)'"))
            }
            return .success(.remote(url))
        default:
            return .failure(MediaLocationError(message: "unsupported URL scheme '\(scheme)' (use a file path, http or https)"))
        }
    }

    /// The path or URL as FFmpeg should be given it.
    public var description: String {
        switch self {
        case .file(let path): path
        case .remote(let url): url.absoluteString
        }
    }

    public var isFile: Bool {
        if case .file = self { return true }
        return false
    }
}

/// Why a `url` value was refused, worded for a config error line.
public struct MediaLocationError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    /// Messages quote the URL as written: a password in it is hidden.
    public init(message: String) {
        self.message = CredentialRedaction.redacted(message)
    }

    public var description: String { message }
}

// A single string, as written in configs. Decoding resolves relative paths against the working
// directory, since a decoder does not know which file the text came from.
extension MediaLocation: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        switch Self.resolve(text, relativeTo: workingDirectory) {
        case .success(let location): self = location
        case .failure(let error): throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
