import Foundation
import MarqueeTestSupport
import Testing

/// `marquee play` keeping the play ledger, and `marquee report` reading it: records for clips,
/// trims, stills and sound alone, cut by a daypart, by the display going off and by the quit, with
/// UTC times that follow the presented timeline; a kill -9 and a torn line; a broken chain named.
@Suite(.serialized) struct LedgerCLITests {
    static func sha256(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum", path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix(64))
    }

    static func records(in folder: URL) -> [[String: Any]] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix("plays-") }.sorted()
        return names.flatMap { name -> [[String: Any]] in
            let data = (try? Data(contentsOf: folder.appendingPathComponent(name))) ?? Data()
            return data.split(separator: UInt8(ascii: "\n")).compactMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] }
        }
    }

    /// Milliseconds since 1970 of a ledger time.
    static func milliseconds(_ text: Any?) -> Int64 {
        guard let text = text as? String else { return -1 }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } ?? -1
    }

    @Test func eachItemShownIsOneRecordWithItsUTCTimesAndWhyItEnded() throws {
        let folder = try PlayCommandTests.workspace.get()
        let ledger = folder.appendingPathComponent("ledger-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: ledger) }
        let base = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.up))
        func clock(_ seconds: Int) -> String { ScheduledPlayCLITests.clock(base, plus: seconds) }
        let config = """
            schedule: {timezone: UTC}
            proofOfPlay: {dir: \(ledger.path)}
            device: {id: cli-test}
            display:
              power:
                windows: [{off: "\(clock(8))", on: "\(clock(10))"}]
            playlists:
              promo:
                interrupt: true
                schedule: {from: "\(clock(3))", to: "\(clock(6))"}
                items: [{url: b.webm, id: promo-b}]
              default:
                items:
                  - {url: a.mp4, start: 0.5, end: 1.5, id: clip-a, title: Clip A}
                  - {url: still.png, duration: 0.8}
                  - voice.m4a
            """
        let name = "ledger-\(UUID().uuidString).yaml"
        let configURL = folder.appendingPathComponent(name)
        try Data(config.utf8).write(to: configURL)
        defer { try? FileManager.default.removeItem(at: configURL) }
        let launched = Date()
        let run = try PlayerRun(arguments: ["play", name, "--output", "headless:160x90", "--audio", "null",
                                            "--clock", "fast", "--control", "none"], in: folder)
        // On again after the dark window, and one more item after it: every kind of end has happened.
        #expect(run.waitForEvents(seconds: 90) { events in
            guard let on = events.firstIndex(where: { $0["event"] as? String == "displayPowerChanged" && $0["display"] as? String == "on" }) else { return false }
            return events[on...].contains { $0["event"] as? String == "itemEnded" }
        })
        #expect(run.terminate() == 0)
        let events = run.events().filter { $0["event"] as? String != "frame" }
        let records = Self.records(in: ledger)
        try #require(records.count >= 6, "\(records)")

        // One record per span on screen: every itemStarted opens one, display on reopens one.
        let opens = events.filter { $0["event"] as? String == "itemStarted" || ($0["event"] as? String == "displayPowerChanged" && $0["display"] as? String == "on") }
        #expect(records.count == opens.count, "\(records.count) records for \(opens.count) starts")
        // UTC: the virtual clock's wall time is its start plus its time, so start − t is one constant.
        let offsets = zip(records, opens).map { Self.milliseconds($0["start"]) - Int64((($1["t"] as? Double ?? 0) * 1000).rounded()) }
        #expect(offsets.max()! - offsets.min()! <= 2, "\(offsets)")
        #expect(abs(Double(offsets[0]) / 1000 - launched.timeIntervalSince1970) < 5)
        // The seconds shown are the presented timeline's, to the millisecond.
        for record in records {
            let shown = Double(Self.milliseconds(record["end"]) - Self.milliseconds(record["start"])) / 1000
            #expect(abs(shown - (record["seconds"] as? Double ?? -1)) < 0.0015, "\(record)")
        }
        let ended = records.map { $0["ended"] as? String ?? "?" }
        for reason in ["completed", "daypartChanged", "displayOff"] { #expect(ended.contains(reason), "\(ended)") }
        #expect(ended.last == "userExited", "\(ended)")
        // The trim is what was shown: a.mp4 from 0.5 to 1.5 s, one second when it completes.
        let clip = records.first { $0["item"] as? String == "clip-a" && $0["ended"] as? String == "completed" }
        #expect(clip.map { abs(($0["seconds"] as? Double ?? 0) - 1.0) < 0.05 } == true, "\(String(describing: clip))")
        #expect(clip?["title"] as? String == "Clip A")
        let still = try Self.sha256(folder.appendingPathComponent("still.png").path)
        #expect(records.contains { ($0["item"] as? String) == folder.appendingPathComponent("still.png").path + "#sha256=\(still)" })
        #expect(records.contains { ($0["url"] as? String)?.hasSuffix("voice.m4a") == true && $0["ended"] as? String == "completed" })
        #expect(records.contains { $0["item"] as? String == "promo-b" && $0["daypart"] as? String == "promo" })
        let configDigest = "sha256:" + (try Self.sha256(configURL.path))
        #expect(records.allSatisfy { $0["device"] as? String == "cli-test" && $0["screen"] as? String == "main" && $0["config"] as? String == configDigest })
        #expect(Set(records.compactMap { $0["id"] as? String }).count == records.count)

        // The report's sums are the ledger's, and the chain verifies.
        let verify = try MarqueeProcess.run(["report", ledger.path, "--verify"], in: folder)
        #expect(verify.status == 0 && verify.standardOutput.contains("\(records.count) records, chain intact"), "\(verify)")
        let report = try MarqueeProcess.run(["report", ledger.path, "--by", "day", "--format", "json"], in: folder)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(report.standardOutput.utf8)) as? [[String: Any]])
        #expect(rows.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == records.count)
        let total = records.reduce(0.0) { $0 + ($1["seconds"] as? Double ?? 0) }
        #expect(abs(rows.reduce(0.0) { $0 + ($1["duration"] as? Double ?? 0) } - total) < 0.01)
    }

    @Test func aKilledPlayerLosesNoRecordAndATornLineIsCutAtTheNextStart() throws {
        let folder = try PlayCommandTests.workspace.get()
        let ledger = folder.appendingPathComponent("ledger-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: ledger) }
        let first = try PlayerRun(arguments: ["play", "silent.mp4", "b.webm", "--repeat", "all", "--ledger", ledger.path,
                                              "--output", "headless:160x90", "--audio", "null", "--control", "none"], in: folder)
        #expect(first.waitForEvents(seconds: 30) { events in events.filter { $0["event"] as? String == "itemEnded" }.count >= 2 })
        // The record follows its itemEnded on the ledger's queue: a moment, not a sync interval.
        Thread.sleep(forTimeInterval: 0.3)
        kill(first.process.processIdentifier, SIGKILL)
        first.process.waitUntilExit()
        let kept = Self.records(in: ledger)
        #expect(kept.count >= 2)
        let day = try #require(try FileManager.default.contentsOfDirectory(atPath: ledger.path).first { $0.hasPrefix("plays-") })
        let handle = try FileHandle(forWritingTo: ledger.appendingPathComponent(day))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"device":"cli-test","end":"2026-11"#.utf8))
        try handle.close()

        let second = try MarqueeProcess.run(["play", "silent.mp4", "--repeat", "off", "--exit-when-idle", "--ledger", ledger.path,
                                             "--output", "headless:160x90", "--audio", "null", "--control", "none"], in: folder)
        #expect(second.status == 0, "\(second)")
        #expect(second.standardError.components(separatedBy: "cut off a torn last record").count == 2, "\(second.standardError)")
        #expect(Self.records(in: ledger).count == kept.count + 1)
        let verify = try MarqueeProcess.run(["report", ledger.path, "--verify"], in: folder)
        #expect(verify.status == 0, "\(verify)")
    }

    @Test func anEditedOrDeletedRecordFailsTheCheckNamingIt() throws {
        let folder = try PlayCommandTests.workspace.get()
        let ledger = folder.appendingPathComponent("ledger-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: ledger) }
        let run = try MarqueeProcess.run(["play", "silent.mp4", "b.webm", "silent.mp4", "--repeat", "off", "--exit-when-idle", "--ledger", ledger.path,
                                          "--output", "headless:160x90", "--audio", "null", "--control", "none", "--clock", "fast"], in: folder)
        #expect(run.status == 0, "\(run)")
        let day = try #require(try FileManager.default.contentsOfDirectory(atPath: ledger.path).first { $0.hasPrefix("plays-") })
        let file = ledger.appendingPathComponent(day)
        let original = try String(contentsOf: file, encoding: .utf8)
        var lines = original.split(separator: "\n").map(String.init)
        try #require(lines.count == 3)

        lines[0] = lines[0].replacingOccurrences(of: "\"ended\":\"completed\"", with: "\"ended\":\"completed\" ")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        let edited = try MarqueeProcess.run(["report", ledger.path, "--verify"], in: folder)
        #expect(edited.status == 1)
        #expect(edited.standardError.contains("\(day): line 2 (record 2"), "\(edited)")

        lines = original.split(separator: "\n").map(String.init)
        lines.remove(at: 1)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        let deleted = try MarqueeProcess.run(["report", ledger.path, "--verify"], in: folder)
        #expect(deleted.status == 1)
        #expect(deleted.standardError.contains("line 2 (record 3") && deleted.standardError.contains("missing"), "\(deleted)")
    }

    @Test func theServiceKeepsALedgerInItsStateDirectoryAndAnAdHocPlayDoesNot() throws {
        let folder = try PlayCommandTests.workspace.get()
        let state = folder.appendingPathComponent("state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        let arguments = ["play", "silent.mp4", "--repeat", "off", "--exit-when-idle", "--output", "headless:160x90",
                         "--audio", "null", "--control", "none", "--clock", "fast"]
        let service = try PlayerRun(arguments: arguments, in: folder, environment: ["STATE_DIRECTORY": state.path])
        #expect(service.waitForExit(seconds: 30) == 0)
        #expect(Self.records(in: state.appendingPathComponent("ledger")).count == 1)
        let adHoc = try PlayerRun(arguments: arguments, in: folder, environment: ["STATE_DIRECTORY": ""])
        #expect(adHoc.waitForExit(seconds: 30) == 0)
        #expect(!adHoc.standardError().contains("ledger"), "\(adHoc.standardError())")
    }
}

/// A week of play on the fast clock with the receiver down for one of its days: every record the
/// ledger holds reaches the receiver, repeats dropped by id, none missing, none foreign.
@Suite(.serialized) struct LedgerUploadCLITests {
    static func days(in ledger: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: ledger.path)) ?? []).filter { $0.hasPrefix("plays-") }.sorted()
    }

    /// Whether the receiver has acknowledged the last record written so far: the cursor on disk
    /// (`cursorFile`, `upload.json` for HTTP) names the last line of the last day.
    static func acknowledgedAll(_ ledger: URL, cursorFile: String = "upload.json") -> Bool {
        guard let last = days(in: ledger).last,
              let data = try? Data(contentsOf: ledger.appendingPathComponent(cursorFile)),
              let cursor = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let lines = try? String(contentsOf: ledger.appendingPathComponent(last), encoding: .utf8) else { return false }
        return "plays-\(cursor["day"] as? String ?? "").jsonl" == last && cursor["seq"] as? Int == lines.split(separator: "\n").count
    }

    @Test func aWeekWithTheReceiverDownForADayArrivesWhole() throws {
        let folder = try PlayCommandTests.workspace.get()
        let ledger = folder.appendingPathComponent("ledger-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: ledger) }
        let store = ReceivedPlays()
        var receiver = try PlayReceiver(store: store)
        let port = receiver.port
        // The first batch is stored and answered 500: it comes again, and the receiver drops the repeats.
        receiver.answerNext([.storeThenFail])
        let config = """
            proofOfPlay:
              dir: \(ledger.path)
              upload: {url: "\(receiver.url)", interval: 1, timeout: 2}
            playlist:
              repeat: "off"
              items:
            """ + "\n" + String(repeating: "    - {url: still.png, duration: 21600, id: morning}\n    - {url: still.png, duration: 21600, id: evening}\n", count: 15)
        let name = "upload-\(UUID().uuidString).yaml"
        try Data(config.utf8).write(to: folder.appendingPathComponent(name))
        defer { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        let run = try PlayerRun(arguments: ["play", name, "--output", "headless:160x90", "--audio", "null", "--control", "none",
                                            "--clock", "fast"], in: folder)
        defer { receiver.stop() }
        func waitForDays(_ count: Int) -> Bool {
            let deadline = Date().addingTimeInterval(120)
            while Date() < deadline && run.process.isRunning {
                if Self.days(in: ledger).count >= count { return true }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return false
        }
        // Down from the third day's first record to the fourth's, and for at least 3 s of real time
        // (a virtual day passes in well under one): the uploader meets the outage.
        #expect(waitForDays(3))
        receiver.stop()
        let downAt = Date()
        #expect(waitForDays(4))
        Thread.sleep(forTimeInterval: max(0, 3 - Date().timeIntervalSince(downAt)))
        receiver = try PlayReceiver(store: store, port: port)
        receiver.answerNext([.storeThenFail])
        #expect(waitForDays(8))
        let written = LedgerCLITests.records(in: ledger).compactMap { $0["id"] as? String }
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline && !(Set(written).isSubset(of: Set(store.byID.keys)) && Self.acknowledgedAll(ledger)) { Thread.sleep(forTimeInterval: 0.1) }
        #expect(run.terminate() == 0)
        let received = store.byID
        let held = Set(LedgerCLITests.records(in: ledger).compactMap { $0["id"] as? String })
        #expect(written.count == 30, "a week and a half-day of six-hour stills, then nothing: the queue ran out")
        #expect(Set(written).isSubset(of: Set(received.keys)), "\(Set(written).subtracting(received.keys).count) of \(written.count) missing")
        #expect(Set(received.keys).isSubset(of: held))
        #expect(received.values.contains { $0 > 1 })
        // The figures the closing note quotes: what crossed, and how much of it twice.
        print("ledger upload: \(written.count) records written, \(received.count) received, \(received.values.reduce(0, +) - received.count) repeats dropped by id, \(store.batchCount) bodies stored")
        // One warning per outage (the 500 and the refusals), each with its line when it takes records again.
        let journal = run.standardError()
        let outages = journal.components(separatedBy: "the records wait in the ledger").count - 1
        #expect(outages >= 1 && outages <= 3, "\(journal)")
        #expect(journal.components(separatedBy: "takes records again").count - 1 == outages, "\(journal)")
    }
}
