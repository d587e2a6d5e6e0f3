import Foundation
@testable import MarqueeFleet
import MarqueeMedia
import Testing

/// libavutil's SHA-256: what media files are named and verified by, and partial files named with.
@Suite struct FileSHA256Tests {
    static let empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    static let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

    @Test func knownVectors() throws {
        #expect(CacheFixture.sha256(of: Data()) == Self.empty)
        #expect(CacheFixture.sha256(of: Data("abc".utf8)) == Self.abc)
    }

    @Test func matchesSha256sumAcrossChunkBoundaries() throws {
        // 2.5 MiB + 7: three 1 MiB reads, the last one partial.
        let path = NSTemporaryDirectory() + "marquee-sha-\(UUID().uuidString).bin"
        defer { unlink(path) }
        _ = FileManager.default.createFile(atPath: path, contents: CacheFixture.bytes(5 << 19 + 7, seed: 3))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum", path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        let expected = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).prefix(64)
        #expect(expected.count == 64)
        #expect(try FileSHA256().sha256(ofFileAt: path) == String(expected))
    }

    @Test func anUnreadableFileIsAOneLineError() {
        #expect(throws: (any Error).self) { try FileSHA256().sha256(ofFileAt: "/nonexistent/clip.mp4") }
        do {
            _ = try FileSHA256().sha256(ofFileAt: "/nonexistent/clip.mp4")
        } catch {
            #expect("\(error)" == "sha256: cannot open /nonexistent/clip.mp4: No such file or directory")
        }
    }

    @Test func bytesInMemoryHashLikeTheSameBytesInAFile() {
        #expect(FileSHA256().sha256(of: []) == Self.empty)
        #expect(FileSHA256().sha256(of: Array("abc".utf8)) == Self.abc)
        let bytes = CacheFixture.bytes(3 << 19, seed: 8)  // 1.5 MiB
        #expect(FileSHA256().sha256(of: Array(bytes)) == CacheFixture.sha256(of: bytes))
    }
}
