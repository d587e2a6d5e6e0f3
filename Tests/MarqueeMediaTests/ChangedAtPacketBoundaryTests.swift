import Foundation
import MarqueeCore
import MarqueeMedia
import Testing

/// A file cut or replaced exactly on a packet boundary gives the reader no damage and no read
/// error: the data just ends. That end is what reading a changed file looks like too, so the
/// reader looks at the file then, whenever it last looked: the item ends as "changed while
/// playing", not as a normal end (or "truncated", blaming a file that was whole when it opened).
///
/// Uncompressed frames larger than FFmpeg's 32 KiB read buffer, so nothing of the frames after the
/// cut is buffered when the file changes, and no decoder holds frames back: the first read after
/// the change meets the end.
@Suite struct ChangedAtPacketBoundaryTests {
    /// Byte offsets of the video packets, as ffprobe reads them.
    private static func packetOffsets(of path: String) throws -> [Int] {
        let ffprobe = try FixtureMedia.ffmpegExecutable().deletingLastPathComponent().appendingPathComponent("ffprobe")
        let process = Process()
        process.executableURL = ffprobe
        process.arguments = ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pos", "-of", "csv=p=0", path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    @Test func aFileCutOnAPacketBoundaryWhileReadEndsAsChangedWhilePlaying() throws {
        let folder = try FixtureMedia.scratchFolder()
        let path = folder.appendingPathComponent("boundary.mov").path
        try FileManager.default.copyItem(atPath: try FixtureMedia.path(.rawBoundaryClip), toPath: path)
        let offsets = try Self.packetOffsets(of: path)
        try #require(offsets.count == 50, "\(offsets.count) packets")
        // Each frame is larger than the read buffer, and they lie end to end.
        try #require(offsets[11] - offsets[10] > 32_768)

        let reader = try FFmpegMediaOpener().open(path)
        for _ in 0..<10 { _ = try #require(try reader.nextMedia(audioFormat: nil)) }
        // Cut where the eleventh frame begins: what was read stays whole, the rest is gone.
        try #require(truncate(path, off_t(offsets[10])) == 0)

        var ending: Result<DecodedMedia?, Error>
        repeat {
            ending = Result { try reader.nextMedia(audioFormat: nil) }
        } while (try? ending.get()) != nil
        guard case .failure(let error) = ending else {
            Issue.record("the cut file ended normally after 10 of its 50 frames")
            return
        }
        let reason = (error as? PlaybackError)?.reason ?? "\(error)"
        #expect(reason.hasPrefix("changed while playing (truncated at 0.4"), "\(reason)")
    }
}

extension FixtureMedia.Recipe {
    /// 2 s at 25 fps of uncompressed 4:2:2 video, 256x144 (73,728 bytes a frame), its index first.
    static let rawBoundaryClip = Self(name: "raw-boundary.mov") { output in
        try FixtureMedia.ffmpeg(FixtureMedia.testPattern(seconds: 2, size: "256x144", rate: 25)
            + ["-c:v", "rawvideo", "-pix_fmt", "uyvy422", "-movflags", "+faststart", output.path])
    }
}
