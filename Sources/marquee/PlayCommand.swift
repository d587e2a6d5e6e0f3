import ArgumentParser
import Foundation
import Logging
import MarqueeConfig
import MarqueeCore
import MarqueeDRM
import MarqueeMedia
import MarqueePlayer
import MarqueeSession

/// `marquee play CONFIG|MEDIA...`: plays a config's playlist, or media files and URLs, until
/// stopped (SIGINT/SIGTERM) or, with --exit-when-idle, until repeat off has played everything.
/// Keypads and remotes (evdev), SIGUSR1 (next) and SIGUSR2 (play/pause) control it meanwhile.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a config's playlist (YAML, JSON, M3U), a config fetched from a server, or media files and URLs."
    )

    @Argument(help: "One config file (.yaml, .yml, .json, .m3u, .m3u8), one http(s) URL of a config (.yaml, .yml, .json: polled, its media cached), or media files and http(s) URLs.")
    var inputs: [String]

    @Option(help: "Video output: auto, drm[:/dev/dri/cardN] or headless[:WxH]. auto is DRM when a card has a connected screen, else headless.")
    var output: String?

    @Option(help: "Audio output: auto, alsa[:PCM] (e.g. alsa:hw:0,0, alsa:plughw:1; alsa alone is the config's audio.device, else default) or null (decoded, trimmed and dropped; video on the monotonic clock). auto is ALSA when the machine has a sound card, else null.")
    var audio: AudioChoice = .auto

    @Option(help: "Write one JSON object per line for every event to FILE, or - for standard output.")
    var events: String?

    @Flag(help: "Add one `frame` event per presented or dropped frame to --events.")
    var traceFrames = false

    @Option(help: "realtime (wall clock) or fast (a virtual clock, as fast as decoding allows).")
    var clock: ClockChoice = .realtime

    @Flag(help: "Exit once the queue is exhausted (repeat off).")
    var exitWhenIdle = false

    @Option(help: "Override the playlist's repeat mode: off, one, all or shuffle.")
    var `repeat`: RepeatMode?

    @Option(help: "Override the scaling mode: none, aspectFit, aspectFill or fill.")
    var scaling: ScalingMode?

    @Option(help: ArgumentHelp("Keypads and remotes: auto (every device with a mapped key, hotplugged ones too), none, or a device path or name; repeat the option for several devices. Overrides input.devices.", valueName: "auto|none|device"))
    var input: [String] = []

    @Option(help: ArgumentHelp("The control socket (`marquee ctl`): a path, or none. Overrides control.socket; the default is $RUNTIME_DIRECTORY/control.sock under systemd, else /run/marquee/control.sock when writable, else $XDG_RUNTIME_DIR/marquee.sock.", valueName: "path|none"))
    var control: String?

    @Option(help: ArgumentHelp("Serve Prometheus metrics at http://ADDRESS/metrics (HOST:PORT, e.g. 127.0.0.1:9150, 0.0.0.0:9150 or [::1]:9150), or none. Overrides metrics.listen.", valueName: "address|none"))
    var metrics: String?

    @Flag(inversion: .prefixedNo, help: "Take input devices exclusively (EVIOCGRAB) so their keys do not also reach the console. Overrides input.grab (default: grab).")
    var grab: Bool?

    @Option(help: "Log level for the journal lines on stderr: trace, debug, info, notice, warning, error, critical. Overrides log.level (default: info).")
    var logLevel: Logger.Level?

    @Option(help: ArgumentHelp("When a config reloaded with SIGHUP takes effect: boundary (the item playing plays to its end, then the new playlist follows) or immediate (settings at once; the item playing ends now if the new playlist drops it).", valueName: "boundary|immediate"))
    var reload: ReloadTiming = .boundary

    @Option(help: ArgumentHelp("Keep the play ledger (proof of play: one hash-chained JSON line per item shown) in DIR. Overrides proofOfPlay.dir and turns it on; it is on by default only under systemd's StateDirectory=.", valueName: "DIR"))
    var ledger: String?

    enum ReloadTiming: String, ExpressibleByArgument {
        case boundary, immediate
    }

    enum ClockChoice: String, ExpressibleByArgument {
        case realtime, fast
    }

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("give a config file or at least one media file or URL") }
        if let output, DisplayConfiguration.Output(parsing: output) == nil {
            throw ValidationError("--output must be auto, drm[:PATH] or headless[:WxH]")
        }
        if !input.isEmpty, InputMonitorFactory.devices(fromArguments: input) == nil {
            throw ValidationError("--input takes auto, none, or device paths and names, not a mix of them")
        }
        if let metrics, metrics != "none", case .failure(let problem) = MetricsListenAddress.parse(metrics) {
            throw ValidationError("--metrics: \(problem.message)")
        }
        if case .alsa = audio, clock == .fast {
            throw ValidationError("--clock fast runs faster than a sound card plays: use --audio null or auto with it")
        }
    }

    func run() throws {
        // Before any thread exists (threads inherit the mask): the signals the session takes
        // through its loop's signalfd never run a default action on some other thread.
        ControlPlaneLoop.blockForProcess(PlaybackSession.signalActions.map(\.number) + DRMVideoOutput.consoleSwitchSignals)
        var plan: PlaybackPlan
        do {
            plan = try PlaybackPlan.load(arguments: inputs)
        } catch let error as PlayError {
            error.lines.forEach(Console.writeError)
            throw ExitCode(1)
        }
        let overrides = PlanOverrides(output: output.flatMap(DisplayConfiguration.Output.init(parsing:)),
                                      repeatMode: `repeat`, scaling: scaling, exitWhenIdle: exitWhenIdle,
                                      inputDevices: input.isEmpty ? nil : InputMonitorFactory.devices(fromArguments: input),
                                      grab: grab, control: control.map(Self.controlSocket),
                                      ledger: ledger.map { URL(fileURLWithPath: $0).standardizedFileURL.path },
                                      metrics: metrics.map { $0 == "none" ? nil : try? MetricsListenAddress.parse($0).get() })
        overrides.apply(to: &plan)

        let logger = Self.makeLogger(level: logLevel ?? Logger.Level(rawValue: plan.logLevel.rawValue) ?? .info)
        // Config diagnostics are complete lines already (`FILE:LINE:COLUMN: warning: ...`).
        if logger.logLevel <= .warning { plan.warnings.forEach(Console.shared.log) }
        if plan.sync != nil && clock == .fast {
            Console.writeError("marquee: sync locks playback to the wall clock: --clock fast cannot follow it")
            throw ExitCode(1)
        }
        let playbackClock: PlaybackClock = clock == .fast ? VirtualClock()
            : plan.sync != nil ? WallClockTime(lag: Self.testClockLag()) as PlaybackClock : MonotonicClock()
        let session: PlaybackSession
        do {
            session = try PlaybackSession(plan: plan, overrides: overrides, reloadImmediately: reload == .immediate,
                                          clock: playbackClock, audio: audio, eventsPath: events, traceFrames: traceFrames,
                                          backends: .live, logger: logger)
        } catch let error as PlayError {
            error.lines.forEach(Console.writeError)
            throw ExitCode(1)
        }
        let startedAnyItem = session.run()
        if exitWhenIdle && !startedAnyItem { throw ExitCode(1) }
    }

    /// For tests only: `MARQUEE_TEST_CLOCK_LAG_MS=40` makes this player read the wall clock 40 ms
    /// behind the truth, as a device whose clock is 40 ms slow, so its frames appear 40 ms late.
    static func testClockLag() -> MediaTime {
        guard let text = ProcessInfo.processInfo.environment["MARQUEE_TEST_CLOCK_LAG_MS"], let milliseconds = Int64(text) else { return .zero }
        return MediaTime(milliseconds, per: 1000)
    }

    /// `--control none`, `--control auto` or a path (made absolute: the player may change folder).
    static func controlSocket(_ argument: String) -> ControlConfiguration.Socket {
        switch argument {
        case "none": .none
        case "auto": .automatic
        default: .path(URL(fileURLWithPath: argument).standardizedFileURL.path)
        }
    }

    private static func makeLogger(level: Logger.Level) -> Logger {
        var logger = Logger(label: "marquee") { _ in ConsoleLogHandler() }
        logger.logLevel = level
        return logger
    }
}

extension RepeatMode: ExpressibleByArgument {}
extension ScalingMode: ExpressibleByArgument {}
extension Logger.Level: @retroactive ExpressibleByArgument {}
extension AudioChoice: ExpressibleByArgument {}
