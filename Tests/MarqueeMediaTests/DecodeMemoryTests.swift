import Foundation
import MarqueeCore
@testable import MarqueeMedia
@testable import MarqueePlayer
import Testing

/// What a playing item keeps in memory (issue 27: a 1080p player's peak RSS against mpv's): decoded
/// pictures are counted by what they weigh, and libavfilter is only mapped once the sound is
/// time-stretched.
@Suite struct DecodeMemoryTests {
    /// A decoded 1080p H.264 picture says what it holds (its planes from the decoder's pool), and
    /// the decode-ahead budget queues two of them, not the four a 720p one gets.
    @Test func aDecoded1080pPictureWeighsWhatTheDecodeAheadBudgetAssumes() throws {
        let reader = try FFmpegMediaOpener().open(try FixtureMedia.path(.hd1080))
        let picture = try #require(try reader.nextPicture())
        let bytes = picture.byteCount
        // Three 4:2:0 planes of 1920x1080, rows and height padded by the decoder: about 3.1 MB.
        #expect(bytes >= 1920 * 1080 * 3 / 2)
        #expect(bytes < 3_500_000)
        #expect(2 * bytes <= ItemPipeline.decodedBytesAhead)
        #expect(3 * bytes > ItemPipeline.decodedBytesAhead)
    }

    /// Playing (decoding pictures and sound) at rate 1 maps no libavfilter; the first time-stretcher
    /// opens it. In a child process of its own: the other suites make stretchers in this one.
    @Test func libavfilterIsMappedOnlyOnceTheSoundIsTimeStretched() async throws {
        let path = try FixtureMedia.path(.h264AAC)
        await #expect(processExitsWith: .success) { [path = path as String] in
            let mappedAtStart = try DecodeMemoryTests.mapsLibavfilter()
            try #require(!mappedAtStart)
            let reader = try FFmpegMediaOpener().open(path)
            var pictures = 0, blocks = 0
            while let media = try reader.nextMedia(audioFormat: .standard) {
                switch media {
                case .picture: pictures += 1
                case .audio: blocks += 1
                }
            }
            try #require(pictures > 0 && blocks > 0)
            let mappedAfterPlaying = try DecodeMemoryTests.mapsLibavfilter()
            try #require(!mappedAfterPlaying)
            try #require(!LibAVFilter.isLoaded)
            let stretcher = try FFmpegAudioTimeStretching().makeStretcher(rate: 2, format: .standard)
            _ = try stretcher.process([Float](repeating: 0, count: 4096))
            let mappedOnceStretched = try DecodeMemoryTests.mapsLibavfilter()
            try #require(mappedOnceStretched)
            try #require(LibAVFilter.isLoaded)
        }
    }

    /// Read to its end: /proc files say they are empty, and a read sized by that stops early.
    static func mapsLibavfilter() throws -> Bool {
        let maps = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps"))
        defer { try? maps.close() }
        return String(decoding: try maps.readToEnd() ?? Data(), as: UTF8.self).contains("libavfilter")
    }
}
