import Foundation
import MarqueeCore
import MarqueeMedia
import Testing

/// A signage player opens the same files thousands of times over months: every open, decode and
/// release must give back its memory and its file descriptors. The rounds run in a child process
/// of their own (an exit test), so the other suites' allocations and pipes, made in parallel in
/// the test process, cannot be mistaken for a leak, nor hide one.
@Suite(.serialized) struct DecodeResourceTests {
    static let warmUpRounds = 5
    static let rounds = 30
    /// A leaked 720p decoder (its contexts and frame pool) costs several megabytes a round, 30
    /// rounds far more than this; malloc's arenas settling after the warm-up cost far less.
    static let residentSlackBytes = 16 * 1024 * 1024
    /// Nothing else opens descriptors in the child: a leak would add one or more per round.
    static let descriptorSlack = 2

    @Test func decodingAClipAgainAndAgainKeepsMemoryAndDescriptorsFlat() async throws {
        let path = try FixtureMedia.path(.hd720)
        await #expect(processExitsWith: .success) { [path = path as String] in
            try DecodeResourceTests.decodeRepeatedly(path)
        }
    }

    /// The child's work: warm up, then decode the clip again and again, checking what stays held.
    static func decodeRepeatedly(_ path: String) throws {
        let opener = FFmpegMediaOpener()
        var lastPicture: VideoPicture?

        func round() throws {
            let reader = try opener.open(path)
            var count = 0
            while let picture = try reader.nextPicture() {
                count += 1
                lastPicture = picture
            }
            try #require(count == 25)
        }

        for _ in 0..<warmUpRounds { try round() }
        weak var releasedPicture: AnyObject?
        releasedPicture = lastPicture
        lastPicture = nil
        try #require(releasedPicture == nil, "a picture outlived everything that held it")
        try #require(descriptors(pointingAt: path) == 0)
        let residentBefore = try residentBytes()
        let descriptorsBefore = try openDescriptorCount()

        for _ in 0..<rounds {
            try round()
            try #require(descriptors(pointingAt: path) == 0, "the file stays open after its reader is gone")
        }
        lastPicture = nil

        let residentGrowth = try residentBytes() - residentBefore
        let descriptorGrowth = try openDescriptorCount() - descriptorsBefore
        try #require(residentGrowth < residentSlackBytes, "resident memory grew by \(residentGrowth / 1024) KB")
        try #require(descriptorGrowth <= descriptorSlack, "\(descriptorGrowth) more descriptors are open")
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
