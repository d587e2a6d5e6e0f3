/// Everything the one command path carries into the player: a transport command, a jump to an
/// item (numeric entry, or a control interface), a setting given a value, or quitting the process.
/// Keys send the plain commands; the control socket sends these and the ones that take values.
public enum ControlAction: Sendable, Equatable, CustomStringConvertible {
    case command(Command)
    /// Play this item (0-based) now.
    case playItem(index: Int)
    /// End playback for good and let the process exit.
    case quit
    /// Read the config again (SIGHUP): a valid one replaces the playlist and settings, an invalid
    /// one is logged and changes nothing.
    case reload
    /// Move by this much (negative: back), landing on the keyframe before the target as
    /// skipForward and skipBackward do; they are `skip(by: ±30 s)`.
    case skip(by: MediaTime)
    /// This many frames forward (positive) or back (negative), paused.
    case step(by: Int)
    case setRepeat(RepeatMode)
    case setScaling(ScalingMode)
    /// The software volume, 0...1; unmutes, as volumeUp does.
    case setVolume(Double)
    case setMuted(Bool)
    case setActionAtItemEnd(ActionAtItemEnd)
    /// Exact seek within the item on screen, in its media time (the socket's seek has a reply).
    case seek(to: MediaTime)
    /// Playback rate (AVPlayer.rate), `RateClock.rates`: playback time runs this many times as fast
    /// as the clock, until changed.
    case setRate(Double)

    /// What a key asked for, on the same path as every other source.
    public init(_ intent: KeyIntent) {
        switch intent {
        case .command(let command): self = .command(command)
        case .playItem(let index): self = .playItem(index: index)
        }
    }

    /// A jump by an interval (`skipForward`, `skipBackward`, with or without seconds).
    public var isSkip: Bool {
        switch self {
        case .skip, .command(.skipForward), .command(.skipBackward): true
        default: false
        }
    }

    /// The name in the events log's `command` field: a Command's raw value, or the control
    /// vocabulary's name for the others (`skipForward` with `seconds`, `stepBackward` with `count`).
    public var name: String {
        switch self {
        case .command(let command): command.rawValue
        case .playItem: "playItem"
        case .quit: "quit"
        case .reload: "reload"
        case .skip(let interval): interval < .zero ? "skipBackward" : "skipForward"
        case .step(let count): count < 0 ? "stepBackward" : "stepForward"
        case .setRepeat: "setRepeat"
        case .setScaling: "setScaling"
        case .setVolume: "setVolume"
        case .setMuted: "mute"
        case .setActionAtItemEnd: "actionAtItemEnd"
        case .seek: "seek"
        case .setRate: "rate"
        }
    }

    /// `next`, `playItem 3` (1-based, as typed), `skipForward 10 s`, `setRepeat one`, `quit`.
    public var description: String {
        switch self {
        case .playItem(let index): "playItem \(index + 1)"
        case .skip(let interval): "\(name) \(shortNumber(abs(interval).seconds)) s"
        case .step(let count): "\(name) \(abs(count))"
        case .setRepeat(let mode): "setRepeat \(mode.rawValue)"
        case .setScaling(let mode): "setScaling \(mode.rawValue)"
        case .setVolume(let volume): "setVolume \(shortNumber(volume))"
        case .setMuted(let muted): muted ? "mute" : "unmute"
        case .setActionAtItemEnd(let action): "actionAtItemEnd \(action.rawValue)"
        case .seek(let time): "seek \(shortNumber(time.seconds)) s"
        case .setRate(let rate): "rate \(shortNumber(rate))"
        default: name
        }
    }
}

private func abs(_ time: MediaTime) -> MediaTime { time < .zero ? -time : time }

/// `10`, `1.5`, `0.333`: at most three decimals, no trailing zeros.
private func shortNumber(_ value: Double) -> String {
    let thousandths = (value * 1000).rounded()
    if thousandths.truncatingRemainder(dividingBy: 1000) == 0 { return String(Int64(thousandths / 1000)) }
    var text = String(thousandths / 1000)
    while text.hasSuffix("0") { text.removeLast() }
    return text
}
