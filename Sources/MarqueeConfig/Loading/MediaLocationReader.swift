import Foundation

/// Turns an item's `url` text into a `MediaLocation`, reporting refusals as errors and absent
/// local files as warnings: media is often copied onto a device after its config.
struct MediaLocationReader {
    let baseDirectory: URL
    let checkingMediaFiles: Bool

    func read(_ text: String, at position: SourcePosition, log: inout DiagnosticLog) -> MediaLocation? {
        switch MediaLocation.resolve(text, relativeTo: baseDirectory) {
        case .failure(let error):
            log.error(at: position, error.message)
            return nil
        case .success(let location):
            if checkingMediaFiles, case .file(let path) = location, !FileManager.default.fileExists(atPath: path) {
                log.warning(at: position, "media file not found: \(path)")
            }
            return location
        }
    }
}
