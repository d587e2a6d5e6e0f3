import Foundation

/// The reasons a font path fails before any font library reads it, checked the same way by every
/// text backend: HarfBuzz only says it could not, FreeType says "cannot open resource", and either
/// would hide a typo in `osd.font` behind a vague message.
public enum FontFileCheck {
    public static func requireReadableNonEmptyFile(at path: String) throws(FontError) {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FontError(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else {
            throw FontError(path: path, reason: "a directory, not a font file")
        }
        guard files.isReadableFile(atPath: path) else {
            throw FontError(path: path, reason: "not readable (permission denied)")
        }
        let size = (try? files.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
        guard let size, size > 0 else {
            throw FontError(path: path, reason: "the file is empty")
        }
    }
}
