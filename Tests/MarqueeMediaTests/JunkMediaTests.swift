import CFFmpeg
import Foundation
import MarqueeCore
@testable import MarqueeMedia
import Testing

/// Files that are not media are refused as such, not played as whatever pseudo-format FFmpeg
/// finds in them; every real container of the accepted list still opens.
@Suite struct JunkMediaTests {
    static let junk: [FixtureMedia.Recipe] = [.textFile, .ansiArt, .randomBin]

    @Test(arguments: junk.map(\.name))
    func theProbeRefusesJunkAsNotAMediaFile(_ name: String) throws {
        let path = try FixtureMedia.path(try #require(Self.junk.first { $0.name == name }))

        let error = try #require(throws: MediaOpenError.self) { try AssetProbe.asset(at: path) }

        #expect(error.reason == .notMediaFile, "\(error)")
        #expect(error.naming(name).description == "\(name): not a media file")
    }

    @Test(arguments: junk.map(\.name))
    func theOpenerRefusesJunkAsNotAMediaFile(_ name: String) throws {
        let path = try FixtureMedia.path(try #require(Self.junk.first { $0.name == name }))

        let error = try #require(throws: PlaybackError.self) { try FFmpegMediaOpener().open(path) }

        #expect(error == PlaybackError(url: path, reason: "not a media file"))
    }

    /// Containers of the list that no other test's media uses, each a fraction of a second, with the
    /// demuxer FFmpeg must pick for it.
    static let otherAccepted: [(file: String, arguments: [String], demuxer: String)] = [
        ("a.flv", ["-c:v", "flv1"], "flv"),
        ("a.wmv", ["-c:v", "wmv2"], "asf"),
        ("a.mpg", ["-c:v", "mpeg1video"], "mpeg"),
        ("a.mxf", ["-c:v", "mpeg2video", "-r", "25"], "mxf"),
        ("a.bmp", ["-frames:v", "1"], "bmp_pipe"),
        ("a.tiff", ["-frames:v", "1"], "tiff_pipe"),
        ("a.aiff", ["-vn"], "aiff"),
        ("a.caf", ["-vn"], "caf"),
        ("a.w64", ["-vn"], "w64"),
        ("a.ac3", ["-vn"], "ac3"),
        ("a.wv", ["-vn"], "wv"),
    ]

    @Test func everyOtherAcceptedContainerStillOpens() throws {
        let folder = try FixtureMedia.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (file, arguments, demuxer) in Self.otherAccepted {
            let path = folder.appendingPathComponent(file).path
            try FixtureMedia.ffmpeg(FixtureMedia.testPattern(seconds: 0.2, size: "64x48")
                + FixtureMedia.tone(seconds: 0.2, rate: 48_000) + arguments + [path])

            let asset = try AssetProbe.asset(at: path)

            #expect(asset.containerName.split(separator: ",").contains { $0 == demuxer }, "\(file): \(asset.containerName)")
        }
    }

    @Test func everyListedDemuxerExistsInThisFFmpeg() {
        for name in DemuxerWhitelist.names {
            #expect(av_find_input_format(name) != nil, "no demuxer named '\(name)'")
        }
    }

    @Test func theReadmeListsEveryAcceptedDemuxer() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let section = try #require(text.range(of: "**Accepted formats.**").map { text[$0.lowerBound...].prefix(1500) })
        for name in DemuxerWhitelist.names {
            #expect(section.contains("`\(name)`"), "README's Accepted formats does not list `\(name)`")
        }
    }
}
