import Foundation
import Logging
import MarqueeConfig
import MarqueeCore
import MarqueeCurl
import MarqueeHTTPServer
import MarqueeMedia
import MarqueePlayer
@testable import MarqueeSession

extension Backends {
    /// The real parts that run here (FFmpeg, the headless output, null audio, curl, PNG, the metrics
    /// server on loopback) and none
    /// of the devices this machine has not (DRM, ALSA, evdev, CEC, a broker).
    static func inProcess(screenSize: PixelSize = PixelSize(width: 160, height: 90)) -> Backends {
        Backends(
            screens: { plan, _, _ in HeadlessScreens(plan: plan, size: screenSize) },
            audio: { _, _ in AudioDevice(output: NullAudioOutput(), isDevice: false) },
            displayPower: { _, _, _ in nil },
            opener: { request, warn in
                FFmpegMediaOpener(options: MediaOpenOptions(readAhead: request.readAhead, maxImagePixels: request.maxImagePixels,
                                                            stillScreenSize: request.stillScreenSize), warn: warn)
            },
            soundStretching: { _ in FFmpegAudioTimeStretching() },
            osd: { _, _ in nil },
            input: { _, _, _, _ in nil },
            http: { CurlHTTPClient() },
            digests: { FileSHA256() },
            broker: { _ in throw ClockWatchError("no broker in these tests") },
            image: { canvas, width, format in try ScreenshotEncoder.encode(canvas, width: width, format: format) },
            clockJumps: { _, _ in .failure(ClockWatchError("not watched in tests")) },
            kernelClock: { nil },
            configWatch: { path, _, _, changed in PollingConfigWatch(path: path, changed: changed) },
            metricsServer: { listen, page in try MetricsHTTPServer(host: listen.host, port: listen.port, page: page) })
    }
}

/// Every screen of a plan headless: the main one and, with `displays:`, each other screen that
/// plays a playlist (mirrors are left out here).
final class HeadlessScreens: ScreenSet, @unchecked Sendable {
    let main: ScreenOutput
    let others: [ScreenOutput]

    init(plan: PlaybackPlan, size: PixelSize) {
        main = ScreenOutput(screen: plan.mainScreen, output: HeadlessVideoOutput(size: size), display: nil)
        others = plan.otherPlayingScreens.map { ScreenOutput(screen: $0, output: HeadlessVideoOutput(size: size), display: nil) }
    }

    func status(playing: (String) -> StatusDocument.Screen.Playing?) -> [StatusDocument.Screen]? {
        guard main.screen != nil else { return nil }
        return ([main] + others).compactMap(\.screen).map { screen in
            var status = StatusDocument.Screen(name: screen.name, connector: screen.connector, kind: "headless", size: PixelSize(width: 160, height: 90))
            status.playing = playing(screen.name)
            return status
        }
    }

    func close() -> [String] { [] }
}

/// Clips made with the ffmpeg CLI in a folder of their own, removed by the test.
struct MediaFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-session-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A 160x90 clip of `seconds` at 25 fps with a tone.
    func clip(_ name: String, seconds: Double = 1, color: String = "navy") throws -> String {
        let path = url.appendingPathComponent(name).path
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=c=\(color):s=160x90:r=25:d=\(seconds)",
                            "-f", "lavfi", "-i", "sine=d=\(seconds)", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", path]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        guard ffmpeg.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        return path
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = url.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

extension Logger {
    /// The session's journal lines, kept for the test to read.
    static func recording(into lines: LogLines) -> Logger {
        var logger = Logger(label: "marquee-test") { _ in RecordingLogHandler(lines: lines) }
        logger.logLevel = .debug
        return logger
    }
}

final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [String] = []
    func append(_ line: String) { lock.withLock { kept.append(line) } }
    var all: [String] { lock.withLock { kept } }
}

struct RecordingLogHandler: LogHandler {
    let lines: LogLines
    var logLevel: Logger.Level = .debug
    var metadata: Logger.Metadata = [:]
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.append("\(event.level): \(event.message)")
    }
}

/// The config's watch in process: its modification time read every 20 ms (the inotify watch is
/// the executable's, tested by ConfigWatchTests against the real binary).
final class PollingConfigWatch: ConfigWatching, @unchecked Sendable {
    private let path: String
    private let changed: @Sendable () -> Void

    init(path: String, changed: @escaping @Sendable () -> Void) {
        self.path = path
        self.changed = changed
    }

    func start() {
        let path = path, changed = changed
        Thread {
            func stamp() -> Date? { (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date }
            var last = stamp()
            while true {
                usleep(20_000)
                let now = stamp()
                if now != last {
                    last = now
                    changed()
                }
            }
        }.start()
    }
}

extension MetricsHTTPServer: MetricsServing {}
