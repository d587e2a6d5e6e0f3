import Foundation
import Glibc
import MarqueeTestSupport
import Testing

/// The control vocabulary over MQTT against Debian's real broker (`mosquitto`), with
/// `mosquitto_pub`/`mosquitto_sub` as the operator's client: commands and replies, the retained
/// status and online flag, the last will, and a broker that dies and comes back mid-playback.
@Suite(.serialized) struct MQTTCLITests {
    /// A config playing a.mp4 (2 s, looped) with `mqtt:` on `broker`, topic `marquee/TOPIC`.
    private func config(broker: MosquittoBroker, topic: String, extra: String = "") throws -> (folder: URL, path: String) {
        let media = try PlayCommandTests.workspace.get()
        let folder = try CLIFixtures.workspace(prefix: "marquee-mqtt-cli-")
        let path = folder.appendingPathComponent("\(topic).yaml").path
        try Data("""
            playlist:
              repeat: all
              items:
                - url: \(media.appendingPathComponent("a.mp4").path)
            mqtt:
              url: \(broker.url)
              topic: marquee/\(topic)
            \(extra)
            """.utf8).write(to: URL(fileURLWithPath: path))
        return (folder, path)
    }

    private func play(_ path: String, in folder: URL) throws -> PlayerRun {
        try PlayerRun(arguments: ["play", path, "--output", "headless:160x90", "--audio", "null", "--control", "none",
                                  "--clock", "realtime"], in: folder)
    }

    private func waitFor(_ run: PlayerRun, seconds: Double = 20, _ text: String, count: Int = 1) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if run.standardError().components(separatedBy: text).count - 1 >= count { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    private func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    @Test func commandsOnTheCommandTopicAreAnsweredOnTheReplyTopicAndLoggedFromMQTT() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let replies = try MosquittoSubscription(broker: broker, topic: "marquee/lobby/reply")
        let (folder, path) = try config(broker: broker, topic: "lobby")
        let run = try play(path, in: folder)
        #expect(waitFor(run, "mqtt: connected to 127.0.0.1:\(broker.port) as marquee/lobby"), "\(run.standardError())")
        #expect(run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })

        #expect(try broker.publish("marquee/lobby/command", #"{"id":1,"command":"next"}"#))
        #expect(try broker.publish("marquee/lobby/command", #"{"id":"two","command":"setRepeat","mode":"twice"}"#))
        #expect(try broker.publish("marquee/lobby/command", #"{"id":3,"command":"status"}"#))
        #expect(replies.wait { $0.count >= 3 }, "\(replies.messages())")
        let answers = replies.messages().map { json($0.payload) }
        #expect(answers.first { $0["id"] as? Int == 1 }?["ok"] as? Bool == true, "\(answers)")
        let bad = answers.first { $0["id"] as? String == "two" }
        #expect(bad?["ok"] as? Bool == false)
        #expect((bad?["error"] as? String)?.contains("'mode' must be one of off, one, all, shuffle, not 'twice'") == true, "\(String(describing: bad))")
        #expect(answers.first { $0["id"] as? Int == 3 }?["state"] as? String == "playing", "\(answers)")

        // The command went down the one command path, with MQTT as its source.
        #expect(run.waitForEvents(seconds: 10) { events in
            events.contains { $0["event"] as? String == "command" && $0["command"] as? String == "next"
                && $0["source"] as? String == "mqtt" && $0["topic"] as? String == "marquee/lobby/command" }
        })
        #expect(waitFor(run, "command next from mqtt (marquee/lobby/command)"), "\(run.standardError())")

        // Retained: a subscriber arriving now is told at once.
        let online = try broker.receive("marquee/lobby/online")
        #expect(online == ["true"])
        let status = json(try broker.receive("marquee/lobby/status").first ?? "")
        #expect(status["state"] as? String == "playing", "\(status)")
        #expect(status["itemCount"] as? Int == 1)
        #expect((status["item"] as? [String: Any])?["index"] as? Int == 0, "\(status)")
        #expect(status["ok"] == nil && status["id"] == nil)

        // A clean quit says offline (retained).
        #expect(run.terminate() == 0)
        #expect(try broker.receive("marquee/lobby/online") == ["false"])
    }

    /// The control socket and MQTT at once share one service: each reply goes back the way its
    /// request came, and each command is logged with its own source.
    @Test func theSocketAndMQTTEachGetTheirOwnReplies() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let replies = try MosquittoSubscription(broker: broker, topic: "marquee/both/reply")
        let (folder, path) = try config(broker: broker, topic: "both")
        let player = try ControlledPlayer(arguments: ["play", path, "--output", "headless:160x90", "--audio", "null",
                                                      "--clock", "realtime"], in: folder)
        #expect(waitFor(player.run, "mqtt: connected to"), "\(player.run.standardError())")
        let fromSocket = try player.request(["id": 41, "command": "setVolume", "volume": 0.5])
        #expect(fromSocket["id"] as? Int == 41 && fromSocket["ok"] as? Bool == true, "\(fromSocket)")
        #expect(try broker.publish("marquee/both/command", #"{"id":42,"command":"setVolume","volume":0.25}"#))
        #expect(replies.wait { $0.contains { json($0.payload)["id"] as? Int == 42 } }, "\(replies.messages())")
        #expect(!replies.messages().contains { json($0.payload)["id"] as? Int == 41 })
        #expect(player.run.waitForEvents(seconds: 10) { events in
            let sources = events.filter { $0["command"] as? String == "setVolume" }.compactMap { $0["source"] as? String }
            return sources == ["control", "mqtt"]
        }, "\(player.run.events().filter { $0["event"] as? String == "command" })")
        #expect(try player.status()["volume"] as? Double == 0.25)
        #expect(player.run.terminate() == 0)
    }

    @Test func statusFollowsChangesAndEventsArePublishedWhenAsked() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let events = try MosquittoSubscription(broker: broker, topic: "marquee/hall/events")
        let statuses = try MosquittoSubscription(broker: broker, topic: "marquee/hall/status")
        let (folder, path) = try config(broker: broker, topic: "hall", extra: "  events: true")
        let run = try play(path, in: folder)
        #expect(waitFor(run, "mqtt: connected to"), "\(run.standardError())")
        #expect(events.wait { $0.contains { json($0.payload)["event"] as? String == "itemStarted" } }, "\(events.messages())")
        #expect(try broker.publish("marquee/hall/command", #"{"command":"pause"}"#))
        #expect(statuses.wait { $0.contains { json($0.payload)["state"] as? String == "paused" } }, "\(statuses.messages().suffix(2))")
        #expect(events.wait { $0.contains { json($0.payload)["event"] as? String == "command" && json($0.payload)["source"] as? String == "mqtt" } })
        // Never a frame, and the status at most a few times a second, not one per frame.
        #expect(!events.messages().contains { json($0.payload)["event"] as? String == "frame" })
        #expect(run.terminate() == 0)
        let seconds = (run.events().last?["t"] as? Double) ?? 1
        #expect(Double(statuses.messages().count) <= 5 * seconds + 3, "\(statuses.messages().count) statuses in \(seconds) s")
    }

    /// A dashboard that subscribes while nothing happens (a paused screen: no events, the next
    /// periodic status 30 s away) is told the status at once: it is published retained.
    @Test func aSubscriberArrivingWhileNothingHappensGetsTheStatusAtOnce() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let statuses = try MosquittoSubscription(broker: broker, topic: "marquee/quiet/status")
        let (folder, path) = try config(broker: broker, topic: "quiet")
        let run = try play(path, in: folder)
        defer { _ = run.terminate() }
        #expect(waitFor(run, "mqtt: connected to"), "\(run.standardError())")
        #expect(run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        #expect(try broker.publish("marquee/quiet/command", #"{"command":"pause"}"#))
        #expect(statuses.wait { $0.contains { json($0.payload)["state"] as? String == "paused" } }, "\(statuses.messages().suffix(2))")
        // Quiet: nothing is published for a while, so what a new subscriber gets is the retained copy.
        Thread.sleep(forTimeInterval: 1)
        let published = statuses.messages().count
        Thread.sleep(forTimeInterval: 1.5)
        #expect(statuses.messages().count == published, "a status was published meanwhile: \(statuses.messages().suffix(2))")

        let started = ContinuousClock.now
        let status = json(try broker.receive("marquee/quiet/status", seconds: 2).first ?? "")
        #expect(status["state"] as? String == "paused", "a new subscriber got \(status) within 2 s")
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    /// Anyone who can publish on the command topic steers playback, but may not load, reload, quit
    /// or write a screenshot to disk unless `mqtt.allow` grants admin (issue 33's roles).
    @Test func mqttClientsControlButDoNotAdministerUnlessAllowed() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let replies = try MosquittoSubscription(broker: broker, topic: "marquee/roles/reply")
        let (folder, path) = try config(broker: broker, topic: "roles")
        let run = try play(path, in: folder)
        defer { _ = run.terminate() }
        #expect(waitFor(run, "mqtt: connected to"), "\(run.standardError())")
        for (id, request) in [(1, #""command":"load","path":"\#(path)""#), (2, #""command":"screenshot","path":"x.png""#),
                              (3, #""command":"quit""#), (4, #""command":"reload""#), (5, #""command":"pause""#),
                              (6, #""command":"screenshot""#), (7, #""command":"status""#)] {
            #expect(try broker.publish("marquee/roles/command", "{\"id\":\(id),\(request)}"))
        }
        #expect(replies.wait { $0.count >= 7 }, "\(replies.messages())")
        let answers = Dictionary(replies.messages().map { json($0.payload) }.compactMap { answer in (answer["id"] as? Int).map { ($0, answer) } },
                                 uniquingKeysWith: { first, _ in first })
        for id in 1...4 {
            #expect(answers[id]?["ok"] as? Bool == false, "\(id): \(String(describing: answers[id]))")
            #expect((answers[id]?["error"] as? String)?.contains("needs the admin role; this client has control; mqtt.allow: [admin] grants it") == true,
                    "\(String(describing: answers[id]))")
        }
        for id in 5...7 { #expect(answers[id]?["ok"] as? Bool == true, "\(id): \(String(describing: answers[id]).prefix(200))") }
        #expect(waitFor(run, "control: refused load from mqtt (marquee/roles/command)"), "\(run.standardError())")
        #expect(run.process.isRunning, "a quit over MQTT ended the player")

        // Granted admin, a reload is done.
        let (adminFolder, adminPath) = try config(broker: broker, topic: "roles-admin", extra: "  allow: [admin]")
        let admin = try play(adminPath, in: adminFolder)
        defer { _ = admin.terminate() }
        let adminReplies = try MosquittoSubscription(broker: broker, topic: "marquee/roles-admin/reply")
        #expect(waitFor(admin, "mqtt: connected to"), "\(admin.standardError())")
        #expect(try broker.publish("marquee/roles-admin/command", #"{"id":1,"command":"reload"}"#))
        #expect(adminReplies.wait { $0.contains { json($0.payload)["id"] as? Int == 1 } }, "\(adminReplies.messages())")
        #expect(adminReplies.messages().map { json($0.payload) }.first { $0["id"] as? Int == 1 }?["ok"] as? Bool == true,
                "\(adminReplies.messages())")
    }

    @Test func aKilledPlayerLeavesItsLastWill() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let online = try MosquittoSubscription(broker: broker, topic: "marquee/will/online")
        let (folder, path) = try config(broker: broker, topic: "will")
        let run = try play(path, in: folder)
        #expect(online.wait { $0.map(\.payload) == ["true"] }, "\(online.messages())")
        kill(run.process.processIdentifier, SIGKILL)
        run.process.waitUntilExit()
        #expect(online.wait(seconds: 10) { $0.map(\.payload) == ["true", "false"] }, "\(online.messages())")
        #expect(try broker.receive("marquee/will/online") == ["false"])
    }

    /// The broker SIGKILLed and started again 3 s later, mid-playback on the real clock: the
    /// player says so once, reconnects, republishes its status and online flag, and drops no frame.
    @Test func aBrokerThatDiesAndComesBackCostsNoFrame() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let (folder, path) = try config(broker: broker, topic: "restart")
        let run = try play(path, in: folder)
        #expect(waitFor(run, "mqtt: connected to 127.0.0.1:\(broker.port) as marquee/restart"), "\(run.standardError())")
        #expect(run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        Thread.sleep(forTimeInterval: 1)
        broker.kill()
        #expect(waitFor(run, seconds: 10, "mqtt: lost the connection to 127.0.0.1:\(broker.port)"), "\(run.standardError())")
        Thread.sleep(forTimeInterval: 3)
        try broker.start()
        #expect(waitFor(run, seconds: 30, "mqtt: connected to 127.0.0.1:\(broker.port)", count: 2), "\(run.standardError())")
        // The new broker holds nothing retained: what it has came from the player after reconnecting.
        #expect(try broker.receive("marquee/restart/online") == ["true"])
        #expect(json(try broker.receive("marquee/restart/status").first ?? "")["state"] as? String == "playing")
        Thread.sleep(forTimeInterval: 1)
        #expect(run.terminate() == 0)

        let frames = run.events().filter { $0["event"] as? String == "frame" }
        #expect(frames.count > 100, "\(frames.count) frames")
        let dropped = frames.filter { $0["dropped"] as? Bool == true }
        let droppedAt = dropped.prefix(5).map { "item \($0["item"] ?? "?") pts \($0["pts"] ?? "?") at \($0["t"] ?? "?") s" }
        let mqttLines = run.standardError().split(separator: "\n").filter { $0.contains("mqtt:") || $0.contains("started") }
        #expect(dropped.isEmpty, "\(dropped.count) dropped: \(droppedAt); journal: \(mqttLines)")
        // One line per outage, not one per attempt.
        let journal = run.standardError()
        #expect(journal.components(separatedBy: "mqtt: lost the connection").count - 1 == 1, "\(journal)")
        #expect(journal.components(separatedBy: "unreachable").count - 1 <= 1, "\(journal)")
    }

    /// A broker that stops reading (SIGSTOP) while the player publishes every event: no frame is
    /// dropped, and a quit still ends the process at once (the goodbye is not waited for).
    @Test func aHungBrokerCostsNoFrameAndDoesNotHoldTheQuit() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let (folder, path) = try config(broker: broker, topic: "hung", extra: "  events: true")
        let run = try play(path, in: folder)
        #expect(waitFor(run, "mqtt: connected to"), "\(run.standardError())")
        #expect(run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        broker.pause()
        defer { broker.resume() }
        // Four loops of the 2 s clip: events and statuses pile up unread.
        #expect(run.waitForEvents(seconds: 30) { $0.filter { $0["event"] as? String == "itemStarted" }.count >= 5 })
        let quitting = Date()
        #expect(run.terminate() == 0)
        #expect(Date().timeIntervalSince(quitting) < 4, "the quit took \(Date().timeIntervalSince(quitting)) s")
        let frames = run.events().filter { $0["event"] as? String == "frame" }
        #expect(frames.count > 150, "\(frames.count) frames")
        let dropped = frames.filter { $0["dropped"] as? Bool == true }
        let droppedAt = dropped.prefix(5).map { "item \($0["item"] ?? "?") pts \($0["pts"] ?? "?") at \($0["t"] ?? "?") s" }
        let mqttLines = run.standardError().split(separator: "\n").filter { $0.contains("mqtt:") || $0.contains("started") }
        #expect(dropped.isEmpty, "\(dropped.count) dropped: \(droppedAt); journal: \(mqttLines)")
    }

    @Test func aBrokerThatIsDownAtStartIsSaidOnceAndPlayingGoesOn() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        broker.kill()
        let (folder, path) = try config(broker: broker, topic: "down")
        let run = try play(path, in: folder)
        #expect(waitFor(run, "mqtt: 127.0.0.1:\(broker.port) unreachable (Connection refused); retrying"), "\(run.standardError())")
        #expect(run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        Thread.sleep(forTimeInterval: 2.5)
        try broker.start()
        #expect(waitFor(run, seconds: 30, "mqtt: connected to"), "\(run.standardError())")
        #expect(run.terminate() == 0)
        #expect(run.standardError().components(separatedBy: "unreachable").count - 1 == 1, "\(run.standardError())")
    }

    /// A broker that wants a password: the credentials file's user gets in, and the password is
    /// never in the journal; a missing file is one error line, no MQTT, and playing goes on.
    @Test func credentialsComeFromTheirFileAndAreNeverLogged() throws {
        let broker = try MosquittoBroker(users: ["lobby": "s3cr3t:pass"])
        defer { broker.stop() }
        let (folder, path) = try config(broker: broker, topic: "auth", extra: "  credentials: mqtt.txt")
        try Data("lobby:s3cr3t:pass\n".utf8).write(to: folder.appendingPathComponent("mqtt.txt"))
        let run = try play(path, in: folder)
        #expect(waitFor(run, "mqtt: connected to 127.0.0.1:\(broker.port) as marquee/auth"), "\(run.standardError())")
        #expect(try broker.publish("marquee/auth/command", #"{"command":"pause"}"#) == false, "anonymous clients are refused")
        #expect(run.terminate() == 0)
        #expect(!run.standardError().contains("s3cr3t"))
        // A password anyone may read, sent in the clear: said once each, at start.
        let file = "\(folder.standardizedFileURL.path)/mqtt.txt"
        let mode = String((try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int ?? 0), radix: 8)
        #expect(run.standardError().components(separatedBy: "warning: mqtt: credentials \(file) may be read by anyone (mode \(mode)); chmod o-r \(file)").count == 2,
                "\(run.standardError())")
        #expect(run.standardError().components(separatedBy: "the credentials go over plain MQTT, readable by anyone on the network; use mqtts://").count == 2)
        chmod(file, 0o600)
        let kept = try play(path, in: folder)
        #expect(waitFor(kept, "mqtt: connected to"), "\(kept.standardError())")
        #expect(kept.terminate() == 0)
        #expect(!kept.standardError().contains("may be read by anyone"), "\(kept.standardError())")

        try Data("lobby:wrong\n".utf8).write(to: folder.appendingPathComponent("mqtt.txt"))
        let refused = try play(path, in: folder)
        #expect(waitFor(refused, "mqtt: 127.0.0.1:\(broker.port) refused the connection (Connection Refused: not authorised); retrying"), "\(refused.standardError())")
        #expect(refused.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        #expect(refused.terminate() == 0)
        #expect(refused.standardError().components(separatedBy: "refused the connection").count - 1 == 1, "\(refused.standardError())")

        try FileManager.default.removeItem(at: folder.appendingPathComponent("mqtt.txt"))
        let missing = try play(path, in: folder)
        #expect(waitFor(missing, "error: mqtt: credentials \(folder.standardizedFileURL.path)/mqtt.txt: no such file; playing on without MQTT"), "\(missing.standardError())")
        #expect(missing.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        #expect(missing.terminate() == 0)
    }

    /// A broker that speaks TLS only, with a certificate from a CA made for the test: trusted
    /// through `tls.caFile`, the player connects and the control vocabulary works as over plain MQTT.
    @Test func overTLSWithTheBrokersCAThePlayerConnectsAndAnswers() throws {
        let broker = try MosquittoBroker(tls: true)
        defer { broker.stop() }
        let caFile = try #require(broker.caFile)
        #expect(broker.url == "mqtts://127.0.0.1:\(broker.port)")
        let replies = try MosquittoSubscription(broker: broker, topic: "marquee/secure/reply")
        let (folder, path) = try config(broker: broker, topic: "secure", extra: "  tls: {caFile: \(caFile)}")
        let run = try play(path, in: folder)
        #expect(waitFor(run, "mqtt: connected to 127.0.0.1:\(broker.port) as marquee/secure"), "\(run.standardError())\n\(broker.log())")
        #expect(try broker.publish("marquee/secure/command", #"{"id":7,"command":"status"}"#))
        #expect(replies.wait { $0.contains { json($0.payload)["id"] as? Int == 7 } }, "\(replies.messages())")
        let answer = replies.messages().map { json($0.payload) }.first { $0["id"] as? Int == 7 }
        #expect(answer?["ok"] as? Bool == true && answer?["state"] as? String == "playing", "\(String(describing: answer))")
        #expect(try broker.receive("marquee/secure/online") == ["true"])
        #expect(run.terminate() == 0)
        #expect(!run.standardError().contains("TLS handshake failed"), "\(run.standardError())")
    }

    /// The same broker without `tls.caFile`: the system's CAs do not trust the test CA, so the
    /// player never connects, says why in one line naming TLS and the certificate, and plays on.
    /// A plain `mqtt://` client on the TLS port does not get in either.
    @Test func overTLSWithAnUntrustedCertificateThePlayerSaysSoOnceAndPlaysOn() throws {
        let broker = try MosquittoBroker(tls: true)
        defer { broker.stop() }
        let (folder, path) = try config(broker: broker, topic: "untrusted")
        let run = try play(path, in: folder)
        let line = "mqtt: 127.0.0.1:\(broker.port) TLS handshake failed (certificate verify failed: the broker's certificate is not signed by a CA in /etc/ssl/certs (no tls.caFile given), or not issued for 127.0.0.1); retrying"
        #expect(waitFor(run, line), "\(run.standardError())")
        #expect(run.waitForEvents(seconds: 30) { $0.filter { $0["event"] as? String == "frame" }.count > 50 })
        // Past the first retry (1 s) and the second (2 s): still one line, never connected.
        Thread.sleep(forTimeInterval: 3.5)
        #expect(run.terminate() == 0)
        let journal = run.standardError()
        #expect(!journal.contains("mqtt: connected to"), "\(journal)")
        #expect(journal.components(separatedBy: "TLS handshake failed").count - 1 == 1, "\(journal)")
        #expect(broker.log().contains("unknown ca"), "\(broker.log())")

        let plainFolder = try CLIFixtures.workspace(prefix: "marquee-mqtt-cli-")
        let plainPath = plainFolder.appendingPathComponent("plain.yaml").path
        try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "mqtts://", with: "mqtt://")
            .write(toFile: plainPath, atomically: true, encoding: .utf8)
        let plain = try play(plainPath, in: plainFolder)
        #expect(waitFor(plain, "mqtt: 127.0.0.1:\(broker.port) closed the connection without accepting it (The connection was lost; a broker that speaks TLS only needs an mqtts:// url); retrying"), "\(plain.standardError())")
        #expect(plain.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        Thread.sleep(forTimeInterval: 2.5)
        #expect(plain.terminate() == 0)
        #expect(!plain.standardError().contains("mqtt: connected to"), "\(plain.standardError())")
        #expect(plain.standardError().components(separatedBy: "closed the connection").count - 1 == 1, "\(plain.standardError())")
    }

    @Test func checkReportsMQTTMistakesWithLineAndColumn() throws {
        let folder = try CLIFixtures.workspace(prefix: "marquee-mqtt-check-")
        try Data("""
            playlist:
              items:
                - url: a.mp4
            mqtt:
              url: http://broker:1883
              topic: marquee/#
              events: often
              tls:
                caFile: ca.pem
              password: hunter2
            """.utf8).write(to: folder.appendingPathComponent("mqtt.yaml"))
        let outcome = try MarqueeProcess.run(["check", "mqtt.yaml"], in: folder)
        #expect(outcome.status == 1)
        #expect(outcome.outputLines.filter { !$0.contains("a.mp4") } == [
            "mqtt.yaml:5:8: error: unsupported scheme 'http' in 'http://broker:1883' (expected mqtt or mqtts)",
            "mqtt.yaml:6:10: error: topic 'marquee/#' must not hold the wildcards '+' or '#'",
            "mqtt.yaml:7:11: error: expected true or false, found 'often'",
            "mqtt.yaml:10:3: error: unknown key 'password' in mqtt (expected 'url', 'topic', 'credentials', 'events', 'tls', 'allow', 'screenshots' or 'proofOfPlay')",
        ], "\(outcome)")

        try Data("""
            playlist:
              items:
                - url: a.mp4
            mqtt:
              url: mqtt://user:secret@broker
              tls: {caFile: ca.pem}
            """.utf8).write(to: folder.appendingPathComponent("creds.yaml"))
        let credentials = try MarqueeProcess.run(["check", "creds.yaml"], in: folder)
        #expect(credentials.outputLines.filter { !$0.contains("a.mp4") } == [
            "creds.yaml:5:8: error: put the user name and password in the credentials file, not in the URL",
        ], "\(credentials)")
        #expect(!credentials.standardOutput.contains("secret"))

        try Data("""
            playlist:
              items:
                - url: a.mp4
            mqtt:
              url: mqtt://broker
              tls: {caFile: ca.pem}
            """.utf8).write(to: folder.appendingPathComponent("tls.yaml"))
        let tls = try MarqueeProcess.run(["check", "tls.yaml"], in: folder)
        #expect(tls.outputLines.filter { !$0.contains("a.mp4") } == [
            "tls.yaml:6:3: error: 'tls' settings need an mqtts:// url (the url is mqtt://broker)",
        ], "\(tls)")
    }
}
