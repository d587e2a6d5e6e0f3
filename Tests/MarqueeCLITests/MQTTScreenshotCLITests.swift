import Foundation
import Glibc
import MarqueeTestSupport
import Testing

/// `mqtt.screenshots` and `screenshot` over MQTT against Debian's real broker: `marquee play`
/// (headless, a solid-colour clip made by the ffmpeg CLI) publishes a retained thumbnail a fresh
/// `mosquitto_sub` receives, and answers a request with the picture in the reply; with
/// `displays:`, each screen on its own topic. Each picture is decoded by the ffmpeg CLI and must
/// have the size asked for and the clip's colour.
@Suite(.serialized) struct MQTTScreenshotCLITests {
    /// red.mp4 (320x180) and blue.mp4 (160x90): 2 s of one colour each, at 25 fps.
    static let workspace: Result<URL, CLIFixtures.Failure> = {
        do {
            let folder = try CLIFixtures.workspace(prefix: "marquee-mqtt-shots-cli-")
            for (name, colour, size) in [("red", "red", "320x180"), ("blue", "blue", "160x90")] {
                try CLIFixtures.runFFmpeg(["-f", "lavfi", "-i", "color=c=\(colour):size=\(size):rate=25", "-t", "2", "-c:v", "libx264",
                                           "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                                           folder.appendingPathComponent("\(name).mp4").path])
            }
            return .success(folder)
        } catch let failure as CLIFixtures.Failure {
            return .failure(failure)
        } catch {
            return .failure(CLIFixtures.Failure(description: "could not make the screenshot test media: \(error)"))
        }
    }()

    private func config(_ name: String, broker: MosquittoBroker, body: String, screenshots: String) throws -> String {
        let folder = try Self.workspace.get()
        let path = folder.appendingPathComponent("\(name).yaml").path
        try Data("""
            \(body)
            mqtt:
              url: \(broker.url)
              topic: marquee/\(name)
              screenshots: \(screenshots)
            """.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func play(_ path: String, output: String) throws -> PlayerRun {
        try PlayerRun(arguments: ["play", path, "--output", output, "--audio", "null", "--control", "none", "--input", "none",
                                  "--clock", "realtime"], in: try Self.workspace.get())
    }

    private func waitFor(_ run: PlayerRun, seconds: Double = 20, _ text: String) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if run.standardError().contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// The first message on `topic` as its raw bytes (`mosquitto_sub -C 1 -N`): a retained one
    /// comes at once; nil when none came within `seconds`.
    private func receiveBytes(_ broker: MosquittoBroker, _ topic: String, seconds: Double) throws -> [UInt8]? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-mqtt-shot-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = MosquittoBroker.client("mosquitto_sub")
        process.arguments = ["-h", "127.0.0.1", "-p", "\(broker.port)", "-t", topic, "-C", "1", "-N"]
        process.standardOutput = try FileHandle(forWritingTo: file)
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        let bytes = [UInt8](try Data(contentsOf: file))
        return bytes.isEmpty ? nil : bytes
    }

    private func decode(_ bytes: [UInt8]) throws -> DecodedImageFile {
        try DecodedImageFile(bytes)
    }

    private func isColour(_ centre: [Int], _ expected: [Int]) -> Bool {
        DecodedImageFile.isNear(centre, expected, within: 16)
    }

    private func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    @Test func aThumbnailOfTheScreenIsPublishedRetained() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let path = try config("shots", broker: broker, body: "playlist:\n  repeat: all\n  items: [red.mp4]",
                              screenshots: "{every: 10, width: 160}")
        let run = try play(path, output: "headless:640x360")
        defer { _ = run.terminate() }
        #expect(waitFor(run, "mqtt: connected to"), "\(run.standardError())")

        // The first picture comes 2 s after connecting; a dashboard subscribing later gets it at once.
        Thread.sleep(forTimeInterval: 3)
        let started = Date()
        let bytes = try #require(try receiveBytes(broker, "marquee/shots/screenshot", seconds: 2), "no retained screenshot: \(run.standardError())")
        #expect(Date().timeIntervalSince(started) < 2)
        #expect(bytes.starts(with: [0xFF, 0xD8, 0xFF]), "not a JPEG: \(bytes.prefix(8))")
        let picture = try decode(bytes)
        #expect(picture.width == 160 && picture.height == 90, "\(picture)")
        #expect(isColour(picture.centre, [255, 0, 0]), "\(picture.centre)")
        #expect(!run.standardError().contains("screenshot"), "\(run.standardError())")
    }

    @Test func aScreenshotRequestIsAnsweredWithThePictureInTheReply() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let replies = try MosquittoSubscription(broker: broker, topic: "marquee/asked/reply")
        let path = try config("asked", broker: broker, body: "playlist:\n  repeat: all\n  items: [red.mp4]", screenshots: "false")
        let run = try play(path, output: "headless:2560x1440")
        defer { _ = run.terminate() }
        #expect(waitFor(run, "mqtt: connected to"), "\(run.standardError())")
        #expect(run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "itemStarted" } })

        // Asked by MQTT's default role (control): no file is written, so no admin is needed.
        #expect(try broker.publish("marquee/asked/command", #"{"id":9,"command":"screenshot","width":320,"format":"jpeg"}"#))
        // Without a width a picture through the broker is 1920 across at most.
        #expect(try broker.publish("marquee/asked/command", #"{"id":10,"command":"screenshot"}"#))
        #expect(replies.wait(seconds: 20) { $0.count >= 2 }, "\(replies.messages().map { $0.payload.prefix(200) })")
        let answers = replies.messages().map { json($0.payload) }
        let jpeg = try #require(answers.first { $0["id"] as? Int == 9 }, "\(answers)")
        #expect(jpeg["ok"] as? Bool == true && jpeg["format"] as? String == "jpeg", "\(jpeg.filter { $0.key != "jpeg" })")
        #expect(jpeg["width"] as? Int == 320 && jpeg["height"] as? Int == 180)
        let bytes = try #require((jpeg["jpeg"] as? String).flatMap { Data(base64Encoded: $0) }, "no base64 jpeg in \(jpeg.keys.sorted())")
        #expect(jpeg["bytes"] as? Int == bytes.count)
        let picture = try decode([UInt8](bytes))
        #expect(picture.width == 320 && picture.height == 180 && isColour(picture.centre, [255, 0, 0]), "\(picture)")

        let png = try #require(answers.first { $0["id"] as? Int == 10 }, "\(answers)")
        #expect(png["ok"] as? Bool == true && png["format"] as? String == "png" && png["width"] as? Int == 1920 && png["height"] as? Int == 1080,
                "\(png.filter { $0.key != "png" })")
        let whole = try decode([UInt8](try #require((png["png"] as? String).flatMap { Data(base64Encoded: $0) })))
        #expect(whole.width == 1920 && whole.height == 1080 && isColour(whole.centre, [255, 0, 0]), "\(whole)")
    }

    @Test func everyScreenOfDisplaysIsPublishedUnderItsName() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let path = try config("wall", broker: broker, body: """
            displays:
              - name: left
                connector: HDMI-A-1
                mode: 320x180
                playlist:
                  repeat: all
                  items: [red.mp4]
              - name: right
                connector: HDMI-A-2
                mode: 200x200
                playlist:
                  repeat: all
                  items: [blue.mp4]
            """, screenshots: "{every: 10, width: 100, format: png}")
        let run = try play(path, output: "headless")
        defer { _ = run.terminate() }
        #expect(waitFor(run, "mqtt: connected to"), "\(run.standardError())")
        Thread.sleep(forTimeInterval: 3)

        let left = try decode(try #require(try receiveBytes(broker, "marquee/wall/screenshot/left", seconds: 10), "\(run.standardError())"))
        #expect(left.width == 100 && left.height == 56 && isColour(left.centre, [255, 0, 0]), "\(left)")
        let right = try decode(try #require(try receiveBytes(broker, "marquee/wall/screenshot/right", seconds: 10)))
        #expect(right.width == 100 && right.height == 100 && isColour(right.centre, [0, 0, 255]), "\(right)")
        // Named alike: nothing on the unnamed topic.
        #expect(try receiveBytes(broker, "marquee/wall/screenshot", seconds: 1) == nil)
    }
}
