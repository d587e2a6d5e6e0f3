import Foundation
import MarqueeTestSupport
import Testing

/// `mqtt.proofOfPlay` against Debian's real broker, `mosquitto_sub` as the receiver: the records
/// played on the fast clock arrive on `TOPIC/pop` with their ids, none missing, none foreign; the
/// broker's PUBACK is the acknowledgement kept in `upload-mqtt.json`, so a restart sends what the
/// broker had not acknowledged and nothing it had, and a broker down for a while costs no record.
@Suite(.serialized) struct MQTTProofOfPlayCLITests {
    static let cursorFile = "upload-mqtt.json"

    /// A config in the media folder: the ledger in `ledger`, its records over MQTT on
    /// `marquee/TOPIC/pop`, `items` played once.
    private func config(broker: MosquittoBroker, topic: String, ledger: URL, items: String) throws -> (folder: URL, name: String) {
        let folder = try PlayCommandTests.workspace.get()
        let name = "pop-\(UUID().uuidString).yaml"
        try Data(("""
            proofOfPlay: {dir: \(ledger.path)}
            mqtt:
              url: \(broker.url)
              topic: marquee/\(topic)
              proofOfPlay: {interval: 1, timeout: 5}
            playlist:
              repeat: "off"
              items:

            """ + items).utf8).write(to: folder.appendingPathComponent(name))
        return (folder, name)
    }

    private func play(_ name: String, in folder: URL) throws -> PlayerRun {
        try PlayerRun(arguments: ["play", name, "--output", "headless:160x90", "--audio", "null", "--control", "none",
                                  "--clock", "fast"], in: folder)
    }

    private func ids(in ledger: URL) -> [String] {
        LedgerCLITests.records(in: ledger).compactMap { $0["id"] as? String }
    }

    /// Three runs of six stills: the first with the broker up (each record arrives once), the
    /// second with it down (its records stay in the ledger), the third with it up again: it sends
    /// the second's and its own, and not one of the first's, which the broker had acknowledged.
    @Test func recordsArriveOnThePopTopicAndARestartSendsOnlyWhatWasNotAcknowledged() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let ledger = try PlayCommandTests.workspace.get().appendingPathComponent("ledger-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: ledger) }
        let items = String(repeating: "    - {url: still.png, duration: 10}\n", count: 6)
        let (folder, name) = try config(broker: broker, topic: "popcli", ledger: ledger, items: items)
        defer { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        let first = try MosquittoSubscription(broker: broker, topic: "marquee/popcli/pop", verbose: false)

        let run1 = try play(name, in: folder)
        #expect(waitUntil(seconds: 60) {
            ids(in: ledger).count == 6 && LedgerUploadCLITests.acknowledgedAll(ledger, cursorFile: Self.cursorFile)
        }, "\(run1.standardError())")
        #expect(first.wait { _ in first.recordIDs().count == 6 }, "\(first.messages())")
        #expect(run1.terminate() == 0)
        let ids1 = ids(in: ledger)
        #expect(first.recordIDs() == Dictionary(uniqueKeysWithValues: ids1.map { ($0, 1) }), "each record once: \(first.recordIDs())")
        // Its own place: an HTTP receiver's (upload.json) is another's.
        #expect(!FileManager.default.fileExists(atPath: ledger.appendingPathComponent("upload.json").path))
        #expect(run1.standardError().contains("ledger: proof of play in"))

        // The broker away: the second run's records wait in the ledger, the place stays.
        broker.kill()
        let kept = try Data(contentsOf: ledger.appendingPathComponent(Self.cursorFile))
        let run2 = try play(name, in: folder)
        #expect(waitUntil(seconds: 60) { ids(in: ledger).count == 12 }, "\(run2.standardError())")
        Thread.sleep(forTimeInterval: 1.5)
        #expect(run2.terminate() == 0)
        #expect(try Data(contentsOf: ledger.appendingPathComponent(Self.cursorFile)) == kept)
        let ids2 = Array(ids(in: ledger).dropFirst(6))

        try broker.start()
        let second = try MosquittoSubscription(broker: broker, topic: "marquee/popcli/pop", verbose: false)
        let run3 = try play(name, in: folder)
        #expect(waitUntil(seconds: 60) {
            ids(in: ledger).count == 18 && LedgerUploadCLITests.acknowledgedAll(ledger, cursorFile: Self.cursorFile)
        }, "\(run3.standardError())")
        let ids3 = Array(ids(in: ledger).dropFirst(12))
        #expect(second.wait { _ in second.recordIDs().count >= 12 })
        #expect(run3.terminate() == 0)
        #expect(Set(second.recordIDs().keys) == Set(ids2 + ids3), "\(second.recordIDs().count) received after the restart")
        #expect(Set(second.recordIDs().keys).isDisjoint(with: ids1), "the first run's records, acknowledged, came again")
    }

    /// A week of six-hour stills on the fast clock with the broker SIGKILLed from the third day to
    /// the fourth (and at least 3 s) and started again on its port: every record the ledger holds
    /// reaches the receiver, a subscriber with a session of its own, repeats dropped by id.
    @Test func aBrokerDownForAWhileCostsNoRecord() throws {
        let broker = try MosquittoBroker(persistent: true)
        defer { broker.stop() }
        let ledger = try PlayCommandTests.workspace.get().appendingPathComponent("ledger-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: ledger) }
        let subscription = try MosquittoSubscription(broker: broker, topic: "marquee/popweek/pop", verbose: false,
                                                     session: "pop-receiver-\(UUID().uuidString.prefix(8))")
        // The broker saves the receiver's session within a second: it outlives the kill.
        Thread.sleep(forTimeInterval: 1.5)
        let items = String(repeating: "    - {url: still.png, duration: 21600, id: morning}\n    - {url: still.png, duration: 21600, id: evening}\n",
                           count: 15)
        let (folder, name) = try config(broker: broker, topic: "popweek", ledger: ledger, items: items)
        defer { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        let run = try play(name, in: folder)
        func waitForDays(_ count: Int) -> Bool {
            waitUntil(seconds: 120) { !run.process.isRunning || LedgerUploadCLITests.days(in: ledger).count >= count }
                && LedgerUploadCLITests.days(in: ledger).count >= count
        }
        #expect(waitForDays(3))
        broker.kill()
        let downAt = Date()
        #expect(waitForDays(4))
        Thread.sleep(forTimeInterval: max(0, 3 - Date().timeIntervalSince(downAt)))
        #expect(!LedgerUploadCLITests.acknowledgedAll(ledger, cursorFile: Self.cursorFile), "records wait for the broker")
        try broker.start()
        #expect(waitForDays(8))
        let written = ids(in: ledger)
        #expect(waitUntil(seconds: 90) {
            Set(written).isSubset(of: subscription.recordIDs().keys) && LedgerUploadCLITests.acknowledgedAll(ledger, cursorFile: Self.cursorFile)
        }, "\(Set(written).subtracting(subscription.recordIDs().keys).count) of \(written.count) missing")
        #expect(run.terminate() == 0)
        let received = subscription.recordIDs()
        #expect(written.count == 30, "a week and a half-day of six-hour stills, then nothing: the queue ran out")
        #expect(Set(written).isSubset(of: received.keys), "\(Set(written).subtracting(received.keys).count) of \(written.count) missing")
        #expect(Set(received.keys).isSubset(of: Set(written)))
        print("mqtt proof of play: \(written.count) records written, \(received.count) received, \(received.values.reduce(0, +) - received.count) repeats dropped by id")
        let journal = run.standardError()
        #expect(journal.contains("mqtt: lost the connection to 127.0.0.1:\(broker.port)"), "\(journal)")
        #expect(journal.components(separatedBy: "mqtt: connected to").count - 1 >= 2, "\(journal)")
    }
}
