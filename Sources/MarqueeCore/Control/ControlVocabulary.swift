/// The control vocabulary, declared once: every command a client can send over the socket or MQTT,
/// or type after `marquee ctl`. The socket's parser, MQTT (through the same parser), `marquee ctl`'s
/// usage, help and completion, the unknown-command message and the key path's autorepeat rule all
/// read this table; a test holds the README's command table to it.
public enum ControlVocabulary {
    /// Longest skip a request may ask for: a day.
    public static let maximumSkip = MediaTime(seconds: 86_400)
    public static let maximumStepCount = 1000
    /// A screenshot scaled for a reply: at least an icon, at most 1920 across, so a base64 reply
    /// through a broker is bounded by a 1080p picture's bytes, not a 4K screen's four times as many.
    public static let minimumScreenshotWidth = 64
    public static let maximumScreenshotWidth = 1920

    public static let all: [ControlCommandSpec] = [
        .key(.play, help: "Plays (AVPlayer's play)."),
        .key(.pause, help: "Pauses on the frame on screen."),
        .key(.togglePlayPause, help: "Plays if paused, else pauses."),
        .key(.stop, help: "Stops: a black screen until play; disarms pauseAfterCurrentItem."),
        .key(.next, help: "The next item."),
        .key(.previous, help: "The previous item."),
        .key(.cycleRepeatMode, help: "Repeat off, one, all, shuffle in turn."),
        .key(.cycleScalingMode, help: "Scaling none, aspectFit, aspectFill, fill in turn."),
        .key(.pauseAfterCurrentItem, help: "Toggles: after this item, advance and pause on the next one's first frame."),
        .key(.volumeUp, repeatsWhenHeld: true, help: "Louder by a step (unmutes)."),
        .key(.volumeDown, repeatsWhenHeld: true, help: "Quieter by a step."),
        .key(.toggleMute, help: "Mutes or unmutes."),
        .key(.displayOff, help: "The screen off (and the TV to standby over HDMI-CEC); decoding pauses."),
        .key(.displayOn, help: "The screen on again, where it was."),
        .key(.toggleDisplay, help: "The screen off if on, else on."),
        ControlCommandSpec("reload", help: "Reads the config again, as SIGHUP does.") { _ throws(ControlArgumentError) in .action(.reload) },
        ControlCommandSpec("quit", help: "Ends playback; the process exits.") { _ throws(ControlArgumentError) in .action(.quit) },
        ControlCommandSpec(
            "playItem", fields: [ControlField("index", .integer(0...Int(Int32.max), hint: "the item's 0-based index, as in itemStarted"), required: true)],
            words: ["index"], usage: "INDEX (0-based, as status and events count)", help: "Plays that item now."
        ) { arguments throws(ControlArgumentError) in .action(.playItem(index: try arguments.required(arguments.integer("index"), "index"))) },
        skip("skipForward", sign: 1, help: "Forward by seconds (default 30), landing on the keyframe before the target."),
        skip("skipBackward", sign: -1, help: "Back by seconds (default 30), landing on the keyframe before the target."),
        step("stepForward", sign: 1, help: "Pauses, then shows the next frame, count times (default 1)."),
        step("stepBackward", sign: -1, help: "Pauses, then shows the frame before, count times (default 1)."),
        ControlCommandSpec(
            "setRepeat", fields: [ControlField("mode", .choice(RepeatMode.allCases.map(\.rawValue)), required: true)],
            words: ["mode"], usage: "off|one|all|shuffle", help: "The repeat mode."
        ) { arguments throws(ControlArgumentError) in .action(.setRepeat(try arguments.required(arguments.choice("mode", of: RepeatMode.self), "mode"))) },
        ControlCommandSpec(
            "setScaling", fields: [ControlField("mode", .choice(ScalingMode.allCases.map(\.rawValue)), required: true)],
            words: ["mode"], usage: "none|aspectFit|aspectFill|fill", help: "The scaling mode."
        ) { arguments throws(ControlArgumentError) in .action(.setScaling(try arguments.required(arguments.choice("mode", of: ScalingMode.self), "mode"))) },
        ControlCommandSpec(
            "setVolume", fields: [ControlField("volume", .number(0...1, hint: "from 0 to 1"), required: true)],
            words: ["volume"], usage: "LEVEL (0 to 1)", help: "The software volume (unmutes)."
        ) { arguments throws(ControlArgumentError) in .action(.setVolume(try arguments.required(arguments.number("volume"), "volume"))) },
        ControlCommandSpec(
            "mute", fields: [ControlField("muted", .flag)], words: ["muted"], usage: "[on|off]",
            help: "Mutes (muted: true, the default) or unmutes (false)."
        ) { arguments throws(ControlArgumentError) in .action(.setMuted(arguments.flag("muted") ?? true)) },
        ControlCommandSpec(
            "rate", fields: [ControlField("rate", .number(RateClock.rates, hint: "from 0.25 to 4"), required: true)],
            words: ["rate"], usage: "RATE (0.25 to 4)", help: "Playback rate, until changed; the sound is time-stretched."
        ) { arguments throws(ControlArgumentError) in .action(.setRate(try arguments.required(arguments.number("rate"), "rate"))) },
        ControlCommandSpec(
            "actionAtItemEnd", fields: [ControlField("action", .choice(ActionAtItemEnd.allCases.map(\.rawValue)), required: true)],
            words: ["action"], usage: "advance|pause|none", help: "What happens when an item ends, until changed."
        ) { arguments throws(ControlArgumentError) in
            .action(.setActionAtItemEnd(try arguments.required(arguments.choice("action", of: ActionAtItemEnd.self), "action")))
        },
        ControlCommandSpec(
            "seek", fields: [ControlField("to", .time, required: true), ControlField("toleranceBefore", .time), ControlField("toleranceAfter", .time)],
            words: ["to"], usage: "TIME (seconds or [hh:]mm:ss[.fff])", help: "Exact seek in the item on screen; the reply waits for its frame."
        ) { arguments throws(ControlArgumentError) in
            .seek(to: try arguments.required(arguments.time("to"), "to"), toleranceBefore: arguments.time("toleranceBefore") ?? .zero,
                  toleranceAfter: arguments.time("toleranceAfter") ?? .zero)
        },
        ControlCommandSpec("status", help: "The player's status.") { _ throws(ControlArgumentError) in .status },
        ControlCommandSpec(
            "subscribe", fields: [ControlField("events", .eventNames)], words: ["events"], usage: "[EVENT...]",
            help: "Every event named (default: all but frame), as --events writes them."
        ) { arguments throws(ControlArgumentError) in .subscribe(events: arguments.names("events")) },
        ControlCommandSpec("unsubscribe", help: "No more events.") { _ throws(ControlArgumentError) in .unsubscribe },
        ControlCommandSpec(
            "observe", fields: [ControlField("every", .time), ControlField("at", .times), ControlField("item", .integer(0...Int(Int32.max), hint: "a 0-based item index"))],
            usage: "every SECONDS | at TIME... [--item INDEX]", help: "A position event every interval of playback, or a boundary event at times."
        ) { arguments throws(ControlArgumentError) in try observer(arguments) },
        ControlCommandSpec(
            "removeObserver", fields: [ControlField("observer", .integer(1...Int.max, hint: "the number observe replied with"), required: true)],
            words: ["observer"], usage: "OBSERVER", help: "Ends an observer of this connection."
        ) { arguments throws(ControlArgumentError) in .removeObserver(try arguments.required(arguments.integer("observer"), "observer")) },
        ControlCommandSpec(
            "load", fields: [ControlField("path", .path), ControlField("playlist", .object(example: "a config's playlist: {\"items\":[{\"url\":\"a.mp4\"}]}")),
                             ControlField("mode", .choice(ControlLoad.Mode.allCases.map(\.rawValue))), ControlField("wait", .flag)],
            words: ["path"], usage: "CONFIG [--append] [--wait]",
            help: "Plays another config's playlist, replacing this one or appended to it; with wait, replies once the player has it (after its downloads)."
        ) { arguments throws(ControlArgumentError) in try load(arguments) },
        ControlCommandSpec(
            "screenshot", fields: [ControlField("path", .text),
                                   ControlField("width", .integer(minimumScreenshotWidth...maximumScreenshotWidth, hint: "pixels across; the picture is scaled down to it")),
                                   ControlField("format", .choice(ImageFileFormat.allCases.map(\.rawValue)))],
            usage: "[SCREEN] -o FILE.png",
            help: "A picture of the screen (PNG, or JPEG with format): returned, or written into the screenshots folder as path; width scales it down; with displays:, marquee ctl screenshot SCREEN (the request's screen) names the screen."
        ) { arguments throws(ControlArgumentError) in
            let path = arguments.text("path")
            if let path, path.isEmpty { throw ControlArgumentError("'path' must not be empty; leave it out to get the picture as base64") }
            let format = arguments.choice("format", of: ImageFileFormat.self)
            if path != nil, let format, format != .png {
                throw ControlArgumentError("'format' \(format.rawValue) is for a picture returned in the reply; a file written as path is a PNG")
            }
            return .screenshot(path: path, width: arguments.integer("width"), format: format)
        },
    ]

    private static let byName: [String: ControlCommandSpec] = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

    public static func spec(named name: String) -> ControlCommandSpec? { byName[name] }

    /// Every command name, sorted: what an unknown command's error lists.
    public static let names: [String] = all.map(\.name).sorted()

    private static func skip(_ name: String, sign: Int64, help: String) -> ControlCommandSpec {
        ControlCommandSpec(name, fields: [ControlField("seconds", .time)], words: ["seconds"], usage: "[SECONDS]",
                           repeatsWhenHeld: true, help: help) { arguments throws(ControlArgumentError) in
            let seconds = arguments.time("seconds") ?? Command.skipInterval
            guard seconds > .zero, seconds <= maximumSkip else { throw ControlArgumentError("'seconds' must be above 0 and at most a day") }
            return .action(.skip(by: sign < 0 ? -seconds : seconds))
        }
    }

    private static func step(_ name: String, sign: Int, help: String) -> ControlCommandSpec {
        ControlCommandSpec(name, fields: [ControlField("count", .integer(1...maximumStepCount, hint: "frames"))], words: ["count"], usage: "[COUNT]",
                           repeatsWhenHeld: true, help: help) { arguments throws(ControlArgumentError) in
            .action(.step(by: sign * (arguments.integer("count") ?? 1)))
        }
    }

    private static func observer(_ arguments: ControlArguments) throws(ControlArgumentError) -> ControlCommand {
        switch (arguments.time("every"), arguments.times("at")) {
        case (let every?, nil):
            if arguments.has("item") { throw ControlArgumentError("'item' goes with 'at', not 'every'") }
            guard every >= MediaTime(1, per: 100) else { throw ControlArgumentError("'every' must be at least 0.01 seconds") }
            return .observeEvery(every)
        case (nil, let times?):
            guard !times.isEmpty, times.count <= 10_000 else { throw ControlArgumentError("'at' must list 1 to 10000 times") }
            return .observeBoundary(times: times, item: arguments.integer("item"))
        default:
            throw ControlArgumentError("observe needs either 'every' (seconds) or 'at' (a list of times, with an optional 'item')")
        }
    }

    private static func load(_ arguments: ControlArguments) throws(ControlArgumentError) -> ControlCommand {
        let mode = arguments.choice("mode", of: ControlLoad.Mode.self) ?? .replace
        let waits = arguments.flag("wait") ?? false
        switch (arguments.text("path"), arguments.object("playlist")) {
        case (let path?, nil):
            guard !path.isEmpty else { throw ControlArgumentError("'path' must be a config file's path") }
            return .load(ControlLoad(source: .path(path), mode: mode, waits: waits))
        case (nil, let playlist?):
            return .load(ControlLoad(source: .playlist(json: playlist), mode: mode, waits: waits))
        default:
            throw ControlArgumentError("load needs either 'path' (a config file) or 'playlist' (an object like a config's playlist)")
        }
    }
}
