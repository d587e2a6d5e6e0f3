import Foundation
import MarqueeCore
@testable import MarqueeMedia
import Testing

/// What counts as the file having changed under the reader, on real files: each way an operator
/// replaces a file does, a file that is merely removed (its open data stays whole) does not.
@Suite struct SourceChangeWatchTests {
    private func file(_ contents: String = "0123456789") throws -> String {
        let path = try FixtureMedia.scratchFolder().appendingPathComponent("watched.bin").path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func setModified(_ path: String, secondsAgo: Int) throws {
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-Double(secondsAgo))], ofItemAtPath: path)
    }

    @Test func anUntouchedFileHasNotChanged() throws {
        let path = try file()
        let watch = try #require(SourceChangeWatch(path: path))
        #expect(!watch.hasChanged(at: .zero, now: true))
        #expect(!watch.hasChanged(at: MediaTime(seconds: 5), now: true))
    }

    @Test func rewritingInPlaceWithTheSameSizeIsAChange() throws {
        let path = try file()
        try setModified(path, secondsAgo: 60)
        let watch = try #require(SourceChangeWatch(path: path))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data("9876543210".utf8))
        try handle.close()
        #expect(watch.hasChanged(at: .zero, now: true))
    }

    @Test func shrinkingIsAChange() throws {
        let path = try file()
        let watch = try #require(SourceChangeWatch(path: path))
        #expect(truncate(path, 3) == 0)
        #expect(watch.hasChanged(at: .zero, now: true))
    }

    @Test func renamingAnotherFileIntoPlaceIsAChange() throws {
        let path = try file()
        let watch = try #require(SourceChangeWatch(path: path))
        let other = path + ".new"
        try Data("0123456789".utf8).write(to: URL(fileURLWithPath: other))
        #expect(rename(other, path) == 0)
        #expect(watch.hasChanged(at: .zero, now: true))
    }

    @Test func aRemovedFileIsNotAChange() throws {
        let path = try file()
        let watch = try #require(SourceChangeWatch(path: path))
        try FileManager.default.removeItem(atPath: path)
        #expect(!watch.hasChanged(at: .zero, now: true))
    }

    /// Between checks the path is not stat'ed: a change shows at the next interval of media read.
    @Test func checksComeOncePerIntervalOfMediaUnlessAskedNow() throws {
        let path = try file()
        let watch = try #require(SourceChangeWatch(path: path))
        #expect(!watch.hasChanged(at: .zero))
        #expect(truncate(path, 3) == 0)
        #expect(!watch.hasChanged(at: SourceChangeWatch.interval - MediaTime(1, per: 1000)))
        #expect(watch.hasChanged(at: SourceChangeWatch.interval))
        #expect(watch.hasChanged(at: SourceChangeWatch.interval, now: true))
    }
}
