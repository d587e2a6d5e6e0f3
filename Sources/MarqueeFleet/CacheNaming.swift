import Foundation
import MarqueeCore

/// How the cache names what it holds. Media files are named by their content
/// (`<sha256>.<ext>`): two URLs with the same bytes share one file, and a name can be checked
/// against its bytes. The extension is kept because FFmpeg and the player look at it (stills).
/// A partial download is named by its URL's hash, so it is found again after a restart.
enum CacheNaming {
    /// The URL path's extension, lower-cased, when it is 1 to 8 of [a-z0-9]; else nil (a name
    /// with an odd extension is still playable: FFmpeg probes the content).
    static func fileExtension(of url: URL) -> String? {
        let ext = url.pathExtension.lowercased()
        guard (1...8).contains(ext.count),
              ext.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) }) else { return nil }
        return ext
    }

    /// `<sha256>.<ext>`, or `<sha256>` when the URL has no usable extension.
    static func mediaFileName(sha256: String, url: URL) -> String {
        fileExtension(of: url).map { "\(sha256).\($0)" } ?? sha256
    }

    /// The content hash a media file name starts with, nil for a name the cache did not make.
    static func sha256(ofMediaFileName name: String) -> String? {
        let hash = String(name.prefix { $0 != "." })
        return isSHA256(hash) ? hash : nil
    }

    /// The stem of a URL's partial files: `<stem>.part` and `<stem>.json`.
    static func partialStem(for url: URL, digest: any FileDigesting) -> String {
        digest.sha256(of: Array(indexKey(for: url).utf8))
    }

    /// What the index and the partial names know a URL by: its text with any password replaced
    /// by `***` (CredentialRedaction), so no secret is written into the cache folder. URLs that
    /// differ only in their password name the same file, which they are.
    static func indexKey(for url: URL) -> String {
        CredentialRedaction.redacted(url.absoluteString)
    }

    /// 64 lower-case hex digits.
    static func isSHA256(_ text: String) -> Bool {
        text.count == 64 && text.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
    }
}
