import Foundation
import MarqueeCore
import MarqueeCurl
import MarqueeLedger
import MarqueeMedia
@testable import MarqueeSession
import Testing

/// The device's ledger with two receivers (`proofOfPlay.upload` and `mqtt.proofOfPlay`): a day
/// past the bounds goes only once both have acknowledged it.
@Suite struct PlayLedgerSinkTests {
    /// A receiver that has acknowledged nothing and is never reached: only its cursor file counts here.
    struct Unreached: LedgerTransport {
        var destination: String { "marquee/lobby/pop on 127.0.0.1:1883" }
        var cursorFile: String { "upload-mqtt.json" }
        func deliver(_ body: [UInt8]) throws(LedgerDeliveryError) { throw .unavailable }
    }

    @Test func daysEitherReceiverHasNotAcknowledgedAreKept() throws {
        let folder = NSTemporaryDirectory() + "ledger-sink-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let writer = try LedgerWriter(folder: folder, maxBytes: 2_000, keepDays: 2, digest: FileSHA256()) { _ in }
        let sink = PlayLedgerSink(writer: writer, folder: folder, identity: ItemIdentity(digest: FileSHA256(), knownDigests: { _ in nil }),
                                  notice: { _ in })
        // The HTTP receiver has everything (its place is past any day written here); the broker nothing.
        try UploadCursor(day: "2099-01-01", seq: 1).save(in: folder)
        let http = sink.send(through: HTTPLedgerTransport(url: URL(string: "http://127.0.0.1:9/pop")!, client: CurlHTTPClient()),
                             settings: LedgerUploader.Settings())
        sink.send(through: Unreached(), settings: LedgerUploader.Settings())
        #expect(!http.holdsUnsent(day: "2026-11-06"))
        for day in 1...6 {
            for n in 0..<3 {
                sink.write { _ in
                    LedgerRecord(id: UUID().uuidString, device: "d", screen: "main", config: nil, daypart: nil, item: "clip", index: n,
                                 url: "/media/clip.mp4", title: nil, start: "2026-11-0\(day)T10:00:0\(n).000Z",
                                 end: "2026-11-0\(day)T10:00:0\(n + 1).000Z", seconds: 1, ended: LedgerRecord.completed)
                }
            }
        }
        sink.finish()
        #expect(LedgerFolder(path: folder).files().count == 6)
    }
}
