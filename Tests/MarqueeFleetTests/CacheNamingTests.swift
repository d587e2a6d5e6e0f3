import Foundation
@testable import MarqueeFleet
import MarqueeMedia
import Testing

/// Media files are named `<sha256>.<ext>`; the extension is what FFmpeg and the player look at.
@Suite struct CacheNamingTests {
    @Test(arguments: [
        ("https://h/a/clip.MP4", "mp4"),
        ("https://h/a/still.jpeg?size=large#x", "jpeg"),
        ("https://h/archive.tar.gz", "gz"),
        ("https://h/a/clip.m2ts", "m2ts"),
        ("https://h/a/file.abcdefgh", "abcdefgh"),
    ])
    func keepsShortAlphanumericExtensionsLowerCased(url: String, ext: String) throws {
        #expect(CacheNaming.fileExtension(of: try #require(URL(string: url))) == ext)
        #expect(CacheNaming.mediaFileName(sha256: String(repeating: "a", count: 64), url: try #require(URL(string: url)))
            == String(repeating: "a", count: 64) + "." + ext)
    }

    @Test(arguments: ["https://h/a/clip", "https://h/a/file.abcdefghi", "https://h/a/odd.we_rd", "https://h/a/über.mp€", "https://h/"])
    func dropsOtherExtensions(url: String) throws {
        let parsed = try #require(URL(string: url) ?? URL(string: url.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!))
        #expect(CacheNaming.fileExtension(of: parsed) == nil)
        #expect(CacheNaming.mediaFileName(sha256: String(repeating: "b", count: 64), url: parsed) == String(repeating: "b", count: 64))
    }

    @Test func partialNamesHideTheURLAndDifferPerURL() throws {
        let first = CacheNaming.partialStem(for: try #require(URL(string: "https://user:secret@h/a.mp4")), digest: FileSHA256())
        let second = CacheNaming.partialStem(for: try #require(URL(string: "https://user:secret@h/b.mp4")), digest: FileSHA256())
        #expect(CacheNaming.isSHA256(first))
        #expect(first != second)
        #expect(!first.contains("secret"))
    }
}
