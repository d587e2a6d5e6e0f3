import Foundation
import MarqueeCore
import MarqueeLedger
import MarqueeMQTT
import MarqueeTestSupport
import Testing

/// Proof of play over a real broker (`mosquitto`) through the project's own client: a batch counts
/// as delivered only once the broker's PUBACK names its message, and only then does the cursor in
/// `upload-mqtt.json` move past it.
@Suite(.serialized) struct MQTTLedgerUploadTests {
    /// The project's client connected to `broker`, its acknowledgements told to a transport over it.
    private func connect(_ broker: MosquittoBroker, topic: String) throws -> (MQTTClient, MQTTLedgerTransport) {
        let options = MQTTClientOptions(host: "127.0.0.1", port: Int(broker.port), clientID: "pop-test-\(UUID().uuidString.prefix(8))")
        let client = try MQTTClient(options: options)
        let transport = MQTTLedgerTransport(connection: client, topic: topic, timeout: 1)
        client.start(BrokerHandlers(connected: {}, message: { _, _ in }, log: { _, _ in }, published: { transport.published($0) }))
        #expect(waitUntil(seconds: 10) { client.isConnected })
        return (client, transport)
    }

    @Test func theCursorMovesOnlyWhenTheBrokerAcknowledges() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let scratch = LedgerScratch()
        defer { scratch.remove() }
        let ids = try writeLedgerDays(scratch, days: 10...11, perDay: 60)
        let subscription = try MosquittoSubscription(broker: broker, topic: "marquee/unit/pop", verbose: false)
        let (client, transport) = try connect(broker, topic: "marquee/unit")
        defer { client.stop(last: nil, waitingAtMost: 1) }
        // The broker keeps the connection but answers nothing: each batch is handed over, no PUBACK comes.
        broker.pause()
        let notices = LedgerUploaderTests.Notices()
        let uploader = LedgerUploader(folder: scratch.path, transport: transport, settings: .init(interval: 0.2, batchRecords: 50),
                                      notice: notices.add)
        uploader.start()
        defer { uploader.stop() }
        Thread.sleep(forTimeInterval: 2.5)
        #expect(client.isConnected)
        #expect(uploader.cursor == nil)
        #expect(UploadCursor.load(from: scratch.path, file: MQTTLedgerTransport.cursorFileName) == nil)
        #expect(notices.warnings == ["ledger upload: marquee/unit/pop on 127.0.0.1:\(broker.port): the broker did not acknowledge a batch within 1 s; the records wait in the ledger and are sent again"],
                "\(notices.warnings)")

        // It answers again: the PUBACKs move the cursor, batch by batch, to the last record, on disk.
        broker.resume()
        let last = UploadCursor(day: "2026-11-11", seq: 60)
        #expect(waitUntil(seconds: 20) { uploader.cursor == last })
        #expect(UploadCursor.load(from: scratch.path, file: MQTTLedgerTransport.cursorFileName) == last)
        #expect(UploadCursor.load(from: scratch.path) == nil, "the HTTP receiver's place is another's")
        #expect(subscription.wait { _ in Set(subscription.recordIDs().keys) == Set(ids) }, "\(subscription.recordIDs().count) of \(ids.count)")
        #expect(notices.infos.contains { $0.contains("takes records again") }, "\(notices.infos)")
    }

    /// Disconnected, nothing is sent and the cursor stays; the uploader says nothing itself (the
    /// client says the outage), and a nudge once connected again (the session's, on each
    /// connection) sends the rest at once, and nothing acknowledged before.
    @Test func aLostConnectionMakesNoProgressAndTheNextOneResumes() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let scratch = LedgerScratch()
        defer { scratch.remove() }
        let first = try writeLedgerDays(scratch, days: 10...10, perDay: 30)
        let (client, transport) = try connect(broker, topic: "marquee/lost")
        defer { client.stop(last: nil, waitingAtMost: 1) }
        let notices = LedgerUploaderTests.Notices()
        // A long interval: only a nudge makes the round after the reconnection this soon.
        let uploader = LedgerUploader(folder: scratch.path, transport: transport, settings: .init(interval: 600), notice: notices.add)
        uploader.start()
        defer { uploader.stop() }
        #expect(waitUntil(seconds: 10) { uploader.cursor == UploadCursor(day: "2026-11-10", seq: 30) })
        broker.kill()
        #expect(waitUntil(seconds: 10) { !client.isConnected })
        let more = try writeLedgerDays(scratch, days: 11...11, perDay: 20)
        uploader.nudge()
        Thread.sleep(forTimeInterval: 1)
        #expect(uploader.cursor == UploadCursor(day: "2026-11-10", seq: 30))
        #expect(notices.warnings.isEmpty, "\(notices.warnings)")
        try broker.start()
        let subscription = try MosquittoSubscription(broker: broker, topic: "marquee/lost/pop", verbose: false, settle: 0.1)
        #expect(waitUntil(seconds: 20) { client.isConnected })
        uploader.nudge()
        #expect(waitUntil(seconds: 10) { uploader.cursor == UploadCursor(day: "2026-11-11", seq: 20) })
        #expect(subscription.wait(seconds: 5) { _ in Set(subscription.recordIDs().keys) == Set(more) })
        #expect(Set(subscription.recordIDs().keys).isDisjoint(with: first))
    }
}
