import Foundation

/// A fresh folder per test, so tests can run in parallel and never see each other's files.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("marquee-config-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `contents` to `name` (which may include subfolders) and returns the file's path.
    @discardableResult
    func write(_ name: String, _ contents: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: file)
        return file.path
    }

    func path(_ name: String) -> String {
        url.appendingPathComponent(name).standardizedFileURL.path
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
