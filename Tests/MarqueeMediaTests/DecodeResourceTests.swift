import Foundation
import MarqueeCore
import MarqueeMedia
import Testing

/// A signage player opens the same files thousands of times over months: every open, decode and
/// release must give back its memory and its file descriptors.
@Suite(.serialized) struct DecodeResourceTests {
    static let warmUpRounds = 5
    static let rounds = 30
    /// Other suites run in this process at the same time and allocate too; a leaked 720p decoder
    /// (its contexts and frame pool) costs several megabytes a round, 30 rounds far more than this.
    static let residentSlackBytes = 40 * 1024 * 1024
    /// Other suites' ffmpeg child processes hold pipes for a moment; a leak would add one per round.
    static let descriptorSlack = 12

    @Test func decodingAClipAgainAndAgainKeepsMemoryAndDescriptorsFlat() throws {
        let path = try FixtureMedia.path(.hd720)
        let opener = FFmpegMediaOpener()
        var lastPicture: VideoPicture?

        func round() throws {
            let reader = try opener.open(path)
            var count = 0
            while let picture = try reader.nextPicture() {
                count += 1
                lastPicture = picture
            }
            #expect(count == 25)
        }

        for _ in 0..<Self.warmUpRounds { try round() }
        weak var releasedPicture: AnyObject?
        releasedPicture = lastPicture
        lastPicture = nil
        #expect(releasedPicture == nil, "a picture outlived everything that held it")
        #expect(Self.descriptors(pointingAt: path) == 0)
        let residentBefore = try Self.residentBytes()
        let descriptorsBefore = try Self.openDescriptorCount()

        for _ in 0..<Self.rounds {
            try round()
            #expect(Self.descriptors(pointingAt: path) == 0, "the file stays open after its reader is gone")
        }
        lastPicture = nil

        let residentGrowth = try Self.residentBytes() - residentBefore
        let descriptorGrowth = try Self.openDescriptorCount() - descriptorsBefore
        #expect(residentGrowth < Self.residentSlackBytes, "resident memory grew by \(residentGrowth / 1024) KB")
        #expect(descriptorGrowth <= Self.descriptorSlack, "\(descriptorGrowth) more descriptors are open")
    }

    // MARK: /proc

    /// Resident set size: the second field of /proc/self/statm, in pages.
    static func residentBytes() throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
        let fields = text.split(separator: " ")
        let pages = try #require(fields.count > 1 ? Int(fields[1]) : nil, "unexpected /proc/self/statm: \(text)")
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    static func openDescriptorCount() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
    }

    /// Descriptors of this process open on `path` (exact, whatever other tests do meanwhile).
    static func descriptors(pointingAt path: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return names.filter { name in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)")) == target
        }.count
    }
}
