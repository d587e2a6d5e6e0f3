import Foundation
import MarqueeCore

/// Turns an item's `url` text into a `MediaLocation`, reporting refusals as errors and absent
/// local files as warnings: media is often copied onto a device after its config.
struct MediaLocationReader {
    let baseDirectory: URL
    let checkingMediaFiles: Bool
    /// A fetched config's own URL: relative references are the server's, as in a web page.
    var mediaBase: URL? = nil

    func read(_ text: String, at position: SourcePosition, log: inout DiagnosticLog) -> MediaLocation? {
        var text = text
        if let mediaBase, URLScheme.of(text.trimmingCharacters(in: .whitespaces)) == nil,
           let absolute = URL(string: text.trimmingCharacters(in: .whitespaces), relativeTo: mediaBase)?.absoluteURL {
            text = absolute.absoluteString
        }
        switch MediaLocation.resolve(text, relativeTo: baseDirectory) {
        case .failure(let error):
            log.error(at: position, error.message)
            return nil
        case .success(let location):
            // A config from a server (which a compromised or spoofed CMS may write) shows what is
            // served, never a file that happens to be on the device.
            if mediaBase != nil, case .file = location {
                log.error(at: position, "a fetched config plays http(s) media only, not local files ('\(text.trimmingCharacters(in: .whitespaces))')")
                return nil
            }
            if checkingMediaFiles, case .file(let path) = location, !FileManager.default.fileExists(atPath: path) {
                log.warning(at: position, "media file not found: \(path)")
            }
            return location
        }
    }
}
