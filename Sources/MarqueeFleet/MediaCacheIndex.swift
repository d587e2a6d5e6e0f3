import Foundation

/// What `index.json` holds: for each URL, the verified file its content is in and the facts a
/// revalidation and the eviction order need. Keyed by the URL's text, password redacted
/// (`CacheNaming.indexKey`).
struct MediaCacheIndex: Codable, Equatable, Sendable {
    var version = 1
    var entries: [String: MediaCacheEntry] = [:]

    /// The index at `path`; an empty one and a one-line reason when the file is unreadable or not
    /// an index (a torn write on a filesystem that lied about fsync, a hand edit). Never throws: a
    /// lost index costs re-downloads, never playback.
    static func load(from path: String) -> (index: MediaCacheIndex, problem: String?) {
        guard FileManager.default.fileExists(atPath: path) else { return (MediaCacheIndex(), nil) }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let index = try decoder.decode(MediaCacheIndex.self, from: data)
            return (index, nil)
        } catch {
            return (MediaCacheIndex(), "cache: \(path) is unreadable or corrupt, starting an empty index (\(reason(error)))")
        }
    }

    func encoded() -> Data {
        (try? Self.encoder.encode(self)) ?? Data("{}".utf8)
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): context.debugDescription
        case DecodingError.keyNotFound(let key, _): "no \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context): context.debugDescription
        default: "\(error)"
        }
    }
}

/// One URL's cached copy.
public struct MediaCacheEntry: Codable, Equatable, Sendable {
    /// The content's hash: the media file is `media/<sha256>.<ext of the URL>`.
    public var sha256: String
    public var size: Int64
    /// The validators the server sent with it, for a conditional re-check.
    public var etag: String?
    public var lastModified: String?
    /// When it was last stored or looked up: eviction removes the least recently used first.
    public var lastUsed: Date

    public init(sha256: String, size: Int64, etag: String? = nil, lastModified: String? = nil, lastUsed: Date) {
        self.sha256 = sha256
        self.size = size
        self.etag = etag
        self.lastModified = lastModified
        self.lastUsed = lastUsed
    }
}
