import Foundation
import MarqueeCore
import MarqueeLedger
import MarqueeMedia
@testable import MarqueeSession
import Testing

/// The ledger's reading of the presented timeline, on clocks the test turns: what opens and closes
/// a record, why it ended, and a stepped wall clock recorded as a step.
@Suite struct PlayLedgerTests {
    /// A player clock and a wall clock the test sets.
    final class Clocks: @unchecked Sendable {
        var player = 100.0
        var wall = 1_800_000_000.0
    }

    private func ledger(_ folder: String, _ clocks: Clocks) throws -> (PlayLedger, PlayLedgerSink) {
        let writer = try LedgerWriter(folder: folder, maxBytes: 1 << 20, keepDays: 30, digest: FileSHA256()) { _ in }
        let sink = PlayLedgerSink(writer: writer, folder: folder, identity: ItemIdentity(digest: FileSHA256(), knownDigests: { _ in nil }),
                                  notice: { _ in })
        return (PlayLedger(sink: sink, device: "d", screen: "main", wallClock: { Date(timeIntervalSince1970: clocks.wall) },
                           clockNow: { clocks.player }, configDigest: { "sha256:c" }), sink)
    }

    private func records(_ folder: String) -> [LedgerRecord] {
        let sources = (try? LedgerReader().sources([folder])) ?? []
        return LedgerReader().records(sources).records
    }

    @Test func startsAndEndsMakeRecordsWithTheirReasons() throws {
        let folder = NSTemporaryDirectory() + "play-ledger-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clocks = Clocks()
        let (ledger, sink) = try ledger(folder, clocks)
        // Events reach the ledger a little after they were stamped: 100.0 is 0.02 s ago.
        clocks.player = 100.02
        ledger.observe(.itemStarted(index: 0, url: "https://cms/a.mp4", title: "A", id: "ad-7"), at: 100.0)
        ledger.observe(.itemEnded(index: 0, url: "https://cms/a.mp4", reason: .playbackEnded, message: nil), at: 110.0)
        ledger.observe(.itemStarted(index: 1, url: "https://cms/b.mp4"), at: 110.0)
        ledger.observe(.displayPowerChanged(on: false), at: 112.5)
        ledger.observe(.displayPowerChanged(on: true), at: 120.0)
        ledger.observe(.daypartChanged(daypart: "lunch", itemCount: 2, immediately: true), at: 121.0)
        ledger.observe(.itemEnded(index: 1, url: "https://cms/b.mp4", reason: .userExited, message: nil), at: 121.0)
        // An item that never appeared ends nothing anyone saw.
        ledger.observe(.itemEnded(index: 0, url: "https://cms/a.mp4", reason: .playbackError, message: "gone"), at: 121.5)
        ledger.observe(.itemStarted(index: 0, url: "https://cms/c.mp4"), at: 122.0)
        ledger.observe(.itemEnded(index: 0, url: "https://cms/c.mp4", reason: .userExited, message: nil), at: 123.0)
        sink.finish()
        let written = records(folder)
        #expect(written.map(\.ended) == ["completed", "displayOff", "daypartChanged", "userExited"])
        #expect(written.map(\.seconds) == [10, 2.5, 1, 1])
        #expect(written.map(\.item) == ["ad-7", "https://cms/b.mp4", "https://cms/b.mp4", "https://cms/c.mp4"])
        #expect(written.map(\.daypart) == [nil, nil, nil, "lunch"])
        // 100.0 on the player clock was 0.02 s before the wall clock's 1_800_000_000.
        #expect(written[0].start == UTCTimestamp.text(milliseconds: 1_799_999_999_980))
        #expect(written[0].end == UTCTimestamp.text(milliseconds: 1_800_000_009_980))
        #expect(written.allSatisfy { $0.clockStep == nil })
    }

    @Test func aWallClockStepDuringAPlayIsRecordedNotFoldedIn() throws {
        let folder = NSTemporaryDirectory() + "play-ledger-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clocks = Clocks()
        let (ledger, sink) = try ledger(folder, clocks)
        ledger.observe(.itemStarted(index: 0, url: "/a.mp4"), at: 100.0)
        // Ten seconds on screen, during which the wall clock was set back an hour.
        clocks.player = 110.0
        clocks.wall += 10 - 3600
        ledger.observe(.itemEnded(index: 0, url: "/a.mp4", reason: .playbackEnded, message: nil), at: 110.0)
        sink.finish()
        let record = try #require(records(folder).first)
        #expect(record.seconds == 10)
        #expect(record.end == UTCTimestamp.text(milliseconds: 1_800_000_010_000))
        #expect(record.clockStep == -3600)
    }
}
