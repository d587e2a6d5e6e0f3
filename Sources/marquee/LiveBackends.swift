import Logging
import MarqueeCEC
import MarqueeConfig
import MarqueeCore
import MarqueeCurl
import MarqueeDRM
import MarqueeEvdev
import MarqueeHTTPServer
import MarqueeMQTT
import MarqueeMedia
import MarqueePlayer
import MarqueeSession

extension Backends {
    /// The real devices and services: FFmpeg, DRM (or headless), ALSA, HDMI-CEC, evdev, curl,
    /// mosquitto, libmicrohttpd, timerfd and adjtimex. The control-plane sources among them (input, hotplug, VT
    /// switches, the config watch, clock jumps) go on the session's loop.
    static let live = Backends(
        screens: { plan, logger, events in
            plan.screens.isEmpty ? try SingleScreen(VideoOutputFactory.make(plan: plan, logger: logger, events: events)) as any ScreenSet
                : try ScreenOutputs.make(plan: plan, logger: logger, events: events)
        },
        audio: { request, logger in
            AudioOutputFactory.make(choice: request.choice, configuration: request.configuration, virtualClock: request.virtualClock, logger: logger)
        },
        displayPower: { setting, screen, logger in
            CECFactory.make(setting, display: screen as? DRMVideoOutput, logger: logger)
        },
        opener: { request, warn in
            FFmpegMediaOpener(options: MediaOpenOptions(readAhead: request.readAhead, maxImagePixels: request.maxImagePixels,
                                                        stillScreenSize: request.stillScreenSize), warn: warn)
        },
        soundStretching: { lockedToWall in lockedToWall ? FFmpegAudioDriftCompensation() as any AudioTimeStretching : FFmpegAudioTimeStretching() },
        osd: { settings, logger in OnScreenDisplayFactory.make(settings, logger: logger) },
        input: { configuration, logger, route, events in
            InputMonitorFactory.make(configuration, logger: logger, events: events, deliver: route.deliver,
                                     entryChanged: route.entryChanged).map(KeypadInput.init)
        },
        http: { CurlHTTPClient() },
        digests: { FileSHA256() },
        broker: { request in
            let configuration = request.configuration
            var options = MQTTClientOptions(host: configuration.host, port: configuration.port,
                                            clientID: configuration.topic.replacingOccurrences(of: "/", with: "-"))
            options.logName = configuration.topic
            options.usesTLS = configuration.usesTLS
            options.caFile = configuration.caFile
            options.username = request.username
            options.password = request.password
            options.will = (request.willTopic, "false", true)
            return try MQTTClient(options: options)
        },
        image: { canvas, width, format in try ScreenshotEncoder.encode(canvas, width: width, format: format) },
        clockJumps: { events, jumped in
            guard let watch = WallClockJumpWatch(events: events, changed: jumped) else { return .failure(ClockWatchError(WallClockJumpWatch.lastError)) }
            return .success(watch)
        },
        kernelClock: {
            KernelClockState.read().map {
                KernelClockReading(isSynchronized: $0.isSynchronized, estimatedErrorMicroseconds: $0.estimatedErrorMicroseconds,
                                   maximumErrorMicroseconds: $0.maximumErrorMicroseconds, description: $0.description)
            }
        },
        configWatch: { path, logger, events, changed in ConfigWatcher(path: path, logger: logger, events: events, changed: changed) },
        metricsServer: { listen, page in try MetricsHTTPServer(host: listen.host, port: listen.port, page: page) })
}

extension DRMVideoOutput: ScreenDisplay {}
extension CECDisplayPower: DisplayPowerDevice {}
extension WallClockJumpWatch: ClockJumpWatching {}

/// A single output (no `displays:`): the main screen and nothing else.
final class SingleScreen: ScreenSet, @unchecked Sendable {
    let main: ScreenOutput
    let others: [ScreenOutput] = []
    private let display: DRMVideoOutput?

    init(_ made: VideoOutputFactory.Made) {
        main = ScreenOutput(screen: nil, output: made.output, display: made.display)
        display = made.display
    }

    func status(playing: (String) -> StatusDocument.Screen.Playing?) -> [StatusDocument.Screen]? { nil }

    func close() -> [String] {
        (display?.close() ?? []).map { "\($0)" }
    }
}

/// The keypads and remotes of evdev, as the session sees them.
final class KeypadInput: InputSource, @unchecked Sendable {
    private let monitor: InputMonitor

    init(_ monitor: InputMonitor) {
        self.monitor = monitor
    }

    func start() { monitor.start() }
    func stop() { monitor.stop() }
    var openDevices: [StatusDocument.Input.Device] {
        monitor.openDevices.map { StatusDocument.Input.Device(path: $0.path, name: $0.name) }
    }
}

/// libmicrohttpd's server is the session's `/metrics` server.
extension MetricsHTTPServer: MetricsServing {}
