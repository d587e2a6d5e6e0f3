import Foundation
import Testing
@testable import MarqueeConfig

/// A reload reads the config only once it has stopped changing: a temporary file renamed over it
/// is read whole, and a file still being written in place is never taken for valid because its
/// first half parses.
@Suite struct SettledLoadTests {
    private let full = "playlist:\n  items:\n    - a.mp4\n    - b.mp4\n    - c.mp4\n"
    /// A prefix of `full` that is itself a valid config (one item).
    private var half: String { "playlist:\n  items:\n    - a.mp4\n" }

    @Test func aTemporaryFileRenamedOverTheConfigIsReadWhole() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("marquee.yaml", half)
        let temporary = try folder.write(".marquee.yaml.tmp", full)
        #expect(rename(temporary, path) == 0)
        let result = ConfigurationLoader.loadSettled(path: path, checkingMediaFiles: false)
        #expect(!result.hasErrors)
        #expect(result.configuration?.playlist.items.count == 3)
    }

    @Test func aFileHalfWrittenInPlaceIsNeverReadAsValid() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("marquee.yaml")
        let handle = try #require(FileHandle(forWritingAtPath: path) ?? {
            FileManager.default.createFile(atPath: path, contents: nil)
            return FileHandle(forWritingAtPath: path)
        }())
        handle.write(Data(half.utf8))
        // The writer finishes 150 ms later, while the reload is reading.
        let writer = Thread {
            Thread.sleep(forTimeInterval: 0.15)
            handle.write(Data(full.dropFirst(half.count).utf8))
            try? handle.close()
        }
        writer.start()
        let result = ConfigurationLoader.loadSettled(path: path, quietPeriod: 0.3, checkingMediaFiles: false)
        #expect(result.configuration?.playlist.items.count == 3)
    }

    @Test func anOldUnchangedFileIsReadAtOnceAndErrorsAreTheLoaders() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("marquee.yaml", "playlist:\n  repeat: sometimes\n  items: [a.mp4]\n")
        let old = Date(timeIntervalSinceNow: -60)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: path)
        let started = Date()
        let result = ConfigurationLoader.loadSettled(path: path, checkingMediaFiles: false)
        #expect(Date().timeIntervalSince(started) < 0.25)
        #expect(result.hasErrors)
        #expect(result.errors.map(\.description) == ConfigurationLoader.load(path: path, checkingMediaFiles: false).errors.map(\.description))
        #expect(ConfigurationLoader.loadSettled(path: folder.path("missing.yaml")).errors.first?.message == "config file not found")
    }
}
