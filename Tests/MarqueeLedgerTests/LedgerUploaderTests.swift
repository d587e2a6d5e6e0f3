import Foundation
import MarqueeCore
import MarqueeCurl
import MarqueeLedger
import MarqueeTestSupport
import Synchronization
import Testing

/// The upload through the real libcurl client to a loopback receiver that refuses, fails, stores
/// and fails, answers slowly, hangs after accepting and goes away: every record arrives, at least
/// once, and the cursor on disk says how far the receiver acknowledged.
@Suite(.serialized) struct LedgerUploaderTests {
    final class Notices: @unchecked Sendable {
        private let lock = NSLock()
        private var all: [LedgerNotice] = []
        func add(_ notice: LedgerNotice) { lock.withLock { all.append(notice) } }
        var warnings: [String] { lock.withLock { all.compactMap { if case .warning(let line) = $0 { line } else { nil } } } }
        var infos: [String] { lock.withLock { all.compactMap { if case .info(let line) = $0 { line } else { nil } } } }
    }

    @Test func everyRecordArrivesThroughRefusalsFailuresAHangAndAnOutage() throws {
        let scratch = LedgerScratch()
        defer { scratch.remove() }
        let ids = try writeLedgerDays(scratch, days: 10...12, perDay: 250)
        let store = ReceivedPlays()
        var receiver = try PlayReceiver(store: store)
        let port = receiver.port
        // A 500, a batch stored but answered 500 (it comes again), a slow one, one that hangs.
        receiver.answerNext([.status(500), .storeThenFail, .slow(0.5), .hang])
        let notices = Notices()
        let transport = HTTPLedgerTransport(url: URL(string: receiver.url)!, timeout: .seconds(1), client: CurlHTTPClient())
        let uploader = LedgerUploader(folder: scratch.path, transport: transport, settings: .init(interval: 0.2, batchRecords: 100), notice: notices.add)
        uploader.start()
        defer { uploader.stop() }
        #expect(waitUntil(seconds: 30) { uploader.cursor == UploadCursor(day: "2026-11-12", seq: 250) })
        // The receiver goes away (connections refused) while a day more is played, and comes back on its port.
        receiver.stop()
        let more = try writeLedgerDays(scratch, days: 13...13, perDay: 100)
        Thread.sleep(forTimeInterval: 1.5)
        let during = store.byID.count
        receiver = try PlayReceiver(store: store, port: port)
        defer { receiver.stop() }
        #expect(waitUntil(seconds: 30) { uploader.cursor == UploadCursor(day: "2026-11-13", seq: 100) })

        let received = store.byID
        #expect(Set(received.keys) == Set(ids + more))
        #expect(received.values.contains { $0 > 1 }, "the batch stored and answered 500 came again")
        #expect(during == ids.count, "nothing of the day played while the receiver was away arrived meanwhile")
        #expect(UploadCursor.load(from: scratch.path) == UploadCursor(day: "2026-11-13", seq: 100))
        // One warning per outage, not per try; and a line when it takes records again.
        #expect(notices.warnings.count <= 3 && notices.warnings.count >= 2, "\(notices.warnings)")
        #expect(notices.infos.contains { $0.contains("takes records again") })
    }

    @Test func aRestartSendsOnlyWhatWasNotAcknowledged() throws {
        let scratch = LedgerScratch()
        defer { scratch.remove() }
        let first = try writeLedgerDays(scratch, days: 10...10, perDay: 120)
        let store = ReceivedPlays()
        let receiver = try PlayReceiver(store: store)
        defer { receiver.stop() }
        let transport = HTTPLedgerTransport(url: URL(string: receiver.url)!, timeout: .seconds(2), client: CurlHTTPClient())
        let settings = LedgerUploader.Settings(interval: 0.2, batchRecords: 50)
        let sender = LedgerUploader(folder: scratch.path, transport: transport, settings: settings) { _ in }
        sender.start()
        #expect(waitUntil(seconds: 20) { sender.cursor == UploadCursor(day: "2026-11-10", seq: 120) })
        sender.stop()
        let second = try writeLedgerDays(scratch, days: 11...11, perDay: 30)
        let again = LedgerUploader(folder: scratch.path, transport: transport, settings: settings) { _ in }
        again.start()
        defer { again.stop() }
        #expect(waitUntil(seconds: 20) { again.cursor == UploadCursor(day: "2026-11-11", seq: 30) })
        #expect(Set(store.byID.keys) == Set(first + second))
        #expect(store.byID.values.allSatisfy { $0 == 1 })
    }

    @Test func daysNotUploadedAreKeptPastTheBound() throws {
        let scratch = LedgerScratch()
        defer { scratch.remove() }
        let notices = Notices()
        // Nothing acknowledged: every day is unsent.
        let uploader = LedgerUploader(folder: scratch.path, transport: HTTPLedgerTransport(url: URL(string: "http://127.0.0.1:9/pop")!,
                                                                                           client: CurlHTTPClient())) { _ in }
        let writer = try LedgerWriter(folder: scratch.path, maxBytes: 2_000, keepDays: 2, digest: sha, notice: notices.add)
        writer.keeps = { uploader.holdsUnsent(day: $0) }
        for day in 1...6 {
            for n in 0..<3 { writer.append(play(n, start: "2026-11-0\(day)T10:00:0\(n).000Z", end: "2026-11-0\(day)T10:00:0\(n + 1).000Z", seconds: 1)) }
        }
        writer.close()
        #expect(LedgerFolder(path: scratch.path).files().count == 6)
        #expect(notices.warnings.count == 1 && notices.warnings[0].contains("not uploaded yet"), "\(notices.warnings)")
    }
}
