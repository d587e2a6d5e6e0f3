import Foundation
import MarqueeConfig
import MarqueeCore
import Testing

@Suite struct M3UPlaylistTests {
    @Test(arguments: ["list.m3u", "list.m3u8", "LIST.M3U"])
    func extinfTitlesNameTheNextEntry(fileName: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write(fileName, """
            \u{FEFF}#EXTM3U
            #EXTINF:30,Intro film

            media/intro.mp4
            # a plain comment does not touch the title
            media/untitled.mp4
            #EXTINF:-1,Live: the harbour cam
              https://example.net/live/index.m3u8
            """)

        let result = ConfigurationLoader.load(path: path, checkingMediaFiles: false)

        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let configuration = try #require(result.configuration)
        #expect(configuration.playlist.repeat == .all)
        #expect(configuration.playlist.items == [
            PlaylistItemConfiguration(location: .file(path: folder.path("media/intro.mp4")), title: "Intro film"),
            PlaylistItemConfiguration(location: .file(path: folder.path("media/untitled.mp4"))),
            PlaylistItemConfiguration(location: .remote(URL(string: "https://example.net/live/index.m3u8")!),
                                      title: "Live: the harbour cam"),
        ])
        #expect(configuration.display == DisplayConfiguration())
        #expect(configuration.input == InputConfiguration())
    }

    @Test func badEntriesAndMissingFilesArePinnedToTheirLines() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("list.m3u", "#EXTM3U\nmissing.mp4\n\n  rtmp://example.net/live\n")

        let result = ConfigurationLoader.load(path: path)

        #expect(result.configuration == nil)
        #expect(result.diagnostics.map(\.description) == [
            "\(path):2:1: warning: media file not found: \(folder.path("missing.mp4"))",
            "\(path):4:3: error: unsupported URL scheme 'rtmp' (use a file path, http or https)",
        ])
    }

    @Test func extinfDurationsThatAreNotSecondsAreWarnedAtTheirColumn() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("list.m3u", """
            #EXTM3U
            #EXTINF:abc,Menu
            a.mp4
              #EXTINF:-5,Prices
            b.mp4
            #EXTINF:,No duration
            c.mp4
            #EXTINF:-1 tvg-id="cam",Live
            d.mp4
            #EXTINF:12.5,Decimal
            e.mp4
            """)

        let result = ConfigurationLoader.load(path: path, checkingMediaFiles: false)

        #expect(result.diagnostics.map(\.description) == [
            "\(path):2:9: warning: #EXTINF duration 'abc' is not a number of seconds (ignored)",
            "\(path):4:11: warning: #EXTINF duration '-5' is negative; only -1 (unknown) may be (ignored)",
            "\(path):6:9: warning: #EXTINF duration nothing is not a number of seconds (ignored)",
        ])
        // Warnings only: every entry is still played, with its title.
        let configuration = try #require(result.configuration)
        #expect(configuration.playlist.items.map(\.title) == ["Menu", "Prices", "No duration", "Live", "Decimal"])
    }

    @Test func aPlaylistWithoutEntriesIsAnError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("list.m3u", "#EXTM3U\n#EXTINF:10,Orphan title\n")

        let result = ConfigurationLoader.load(path: path)

        #expect(result.configuration == nil)
        #expect(result.errors.map(\.message) == ["the playlist has no entries (one path or URL per line)"])
    }
}
