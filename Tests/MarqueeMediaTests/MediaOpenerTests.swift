import Foundation
import MarqueeCore
import MarqueeMedia
import Testing

/// What the engine sees when media cannot be opened: a `PlaybackError` naming the URL as given and
/// the cause alone, which the engine reports as it is.
@Suite struct MediaOpenerTests {
    static let opener = FFmpegMediaOpener()

    @Test func aMissingFile() throws {
        let error = try #require(throws: PlaybackError.self) { try Self.opener.open("media/none.mp4") }

        #expect(error == PlaybackError(url: "media/none.mp4", reason: "no such file"))
        #expect(error.description == "media/none.mp4: no such file")
    }

    @Test func aFileWithoutItsIndex() throws {
        let path = try FixtureMedia.path(.truncatedMP4)

        let error = try #require(throws: PlaybackError.self) { try Self.opener.open(path) }

        #expect(error == PlaybackError(url: path, reason: "invalid data (moov atom not found)"))
    }

    @Test func aCodecThisFFmpegCannotDecode() throws {
        let path = try FixtureMedia.path(.undecodableNUT)

        let error = try #require(throws: PlaybackError.self) { try Self.opener.open(path) }

        #expect(error.reason == "unsupported codec 'a64m' in the only video stream")
    }

    @Test func aRefusedScheme() throws {
        let error = try #require(throws: PlaybackError.self) { try Self.opener.open("concat:a.mp4|b.mp4") }

        #expect(error.url == "concat:a.mp4|b.mp4")
        #expect(error.reason == "unsupported URL scheme 'concat' (use a file path, http or https)")
    }

    @Test func theAssetIsTheProbesAsset() throws {
        let path = try FixtureMedia.path(.frameIndexH264)

        let reader = try Self.opener.open(path)

        #expect(reader.asset == (try AssetProbe.asset(at: path)))
    }
}
