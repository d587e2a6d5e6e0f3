import Foundation
import MarqueeCore
import MarqueeFleet

/// The last good fetched config, kept beside the media cache so a device that boots without a
/// network plays what it played before: `config/remote.yaml` (the text as the server sent it)
/// and `config/remote.json` (its URL and validators, for the next conditional request). Each is
/// written to a temporary file, synced and renamed, so a power cut leaves the old pair or the new
/// one; the text is written last, and read only with validators naming the same URL and digest.
package struct RemoteConfigStore: Sendable {
    package struct Saved: Codable, Equatable, Sendable {
        package var url: String
        package var etag: String?
        package var lastModified: String?
        /// When it was fetched, ISO 8601: what the journal says when it plays offline.
        package var fetchedAt: String
        /// The text's length and hash, so a text from another save is never paired with these.
        package var bytes: Int
        package var sha256: String
    }

    package let folder: String
    package let cacheDirectory: String
    package let digest: any FileDigesting

    package init(cacheDirectory: String, digest: any FileDigesting) {
        self.cacheDirectory = cacheDirectory
        self.digest = digest
        folder = (cacheDirectory as NSString).appendingPathComponent("config")
    }

    private var textPath: String { (folder as NSString).appendingPathComponent("remote.yaml") }
    private var metadataPath: String { (folder as NSString).appendingPathComponent("remote.json") }

    /// The config saved from `url`, with its validators; nil when none was, or it was for another URL.
    package func load(for url: URL) -> (text: String, saved: Saved)? {
        guard let data = FileManager.default.contents(atPath: metadataPath),
              let saved = try? JSONDecoder().decode(Saved.self, from: data), saved.url == url.absoluteString,
              let textData = FileManager.default.contents(atPath: textPath), textData.count == saved.bytes,
              digest.sha256(of: Array(textData)) == saved.sha256, let text = String(data: textData, encoding: .utf8) else { return nil }
        return (text, saved)
    }

    /// Keeps `text` as the last good config from `url`. Throws a one-line reason (a full disk).
    package func save(_ text: String, from url: URL, etag: String?, lastModified: String?, at date: Date = Date()) throws {
        try DurableFile.makeDirectory(folder)
        let data = Data(text.utf8)
        let saved = Saved(url: url.absoluteString, etag: etag, lastModified: lastModified,
                          fetchedAt: date.formatted(.iso8601), bytes: data.count, sha256: digest.sha256(of: Array(data)))
        try DurableFile.writeAtomically(try JSONEncoder().encode(saved), to: metadataPath, cacheDirectory: cacheDirectory)
        try DurableFile.writeAtomically(data, to: textPath, cacheDirectory: cacheDirectory)
    }
}
