import Foundation
import MarqueeTestSupport

/// Media and a real HTTP server (127.0.0.1) for the fleet tests: a config the server holds, the
/// media it names, and `marquee play URL` runs with a cache folder of the test's own.
struct FleetFixture {
    /// Clips the server hands out, by name, with their SHA-256 (as `sha256sum` prints it).
    struct Clip {
        let data: Data
        let sha256: String
    }

    static let clips: Result<[String: Clip], CLIFixtures.Failure> = {
        do {
            let folder = try CLIFixtures.workspace(prefix: "marquee-fleet-media-")
            func make(_ name: String, _ arguments: [String]) throws -> Clip {
                let path = folder.appendingPathComponent(name).path
                try CLIFixtures.runFFmpeg(arguments + [path])
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                return Clip(data: data, sha256: try sha256sum(path))
            }
            let x264 = ["-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-pix_fmt", "yuv420p"]
            var clips: [String: Clip] = [:]
            for (name, colour) in [("one", "red"), ("two", "green"), ("three", "blue"), ("four", "yellow")] {
                clips[name] = try make("\(name).mp4", ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25,drawbox=c=\(colour):t=fill:w=40:h=40",
                                                      "-t", "1"] + x264)
            }
            // About a megabyte: lossless noise, for a download that takes a while on a throttled link.
            clips["big"] = try make("big.mp4", ["-f", "lavfi", "-i", "nullsrc=size=160x90:rate=25,geq=random(1)*255:128:128",
                                                "-t", "2", "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-pix_fmt", "yuv420p"])
            return .success(clips)
        } catch let failure as CLIFixtures.Failure {
            return .failure(failure)
        } catch {
            return .failure(CLIFixtures.Failure(description: "could not make the fleet test media: \(error)"))
        }
    }()

    static func sha256sum(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let digest = text.split(separator: " ").first else {
            throw CLIFixtures.Failure(description: "sha256sum \(path) failed")
        }
        return String(digest)
    }

    let clips: [String: Clip]
    let server: LoopbackHTTPServer
    /// The test's own folder: the cache is `cache/` in it.
    let folder: URL
    var cache: URL { folder.appendingPathComponent("cache") }
    var configURL: String { server.url("/screens/lobby.yaml") }

    init(name: String) throws {
        clips = try Self.clips.get()
        server = try LoopbackHTTPServer()
        folder = try CLIFixtures.workspace(prefix: "marquee-fleet-").appendingPathComponent(name)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Serves `yaml` as the config, with ETag `etag`.
    func serveConfig(_ yaml: String, etag: String) {
        server.setRoute("/screens/lobby.yaml", .taggedFile(Data(yaml.utf8), contentType: "application/yaml", etag: "\"\(etag)\"",
                                                           lastModified: "Thu, 26 Nov 2026 07:00:00 GMT"))
    }

    /// Serves clip `name` at /screens/media/NAME.mp4.
    func serve(_ name: String, as route: ((Data) -> LoopbackHTTPServer.Route)? = nil) {
        let data = clips[name]!.data
        server.setRoute("/screens/media/\(name).mp4", route?(data) ?? .file(data, contentType: "video/mp4"))
    }

    /// `marquee play URL` (or a bootstrap config), headless, on the real clock, its cache in `cache`.
    func play(_ target: String? = nil, extra: [String] = [], environment: [String: String] = [:]) throws -> PlayerRun {
        try PlayerRun(arguments: ["play", target ?? configURL, "--output", "headless:160x90", "--audio", "null", "--control", "none",
                                  "--clock", "realtime"] + extra,
                      in: folder, environment: environment.merging(["CACHE_DIRECTORY": cache.path]) { given, _ in given })
    }

    /// The URL a clip is played under.
    func mediaURL(_ name: String) -> String { server.url("/screens/media/\(name).mp4") }

    /// The files in the cache's media folder, by name.
    func cachedFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("media").path)) ?? []).sorted()
    }

    /// Every itemStarted's url, in order.
    static func starts(_ events: [[String: Any]]) -> [String] {
        events.filter { $0["event"] as? String == "itemStarted" }.compactMap { $0["url"] as? String }
    }

    /// Whether stderr holds `text`, waiting up to `seconds`.
    static func waitFor(_ run: PlayerRun, seconds: Double = 30, _ text: String) -> Bool {
        run.waitForStandardError(containing: text, seconds: seconds)
    }
}
