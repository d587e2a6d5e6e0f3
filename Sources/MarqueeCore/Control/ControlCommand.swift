/// What a control request asks for, whichever transport carried it (the socket, MQTT, `marquee ctl`).
public enum ControlCommand: Sendable, Equatable {
    /// Anything keys and signals can ask too, and the settings that take a value: one command path.
    case action(ControlAction)
    /// AVPlayer's seek(to:toleranceBefore:toleranceAfter:); the reply waits for its first frame.
    case seek(to: MediaTime, toleranceBefore: MediaTime, toleranceAfter: MediaTime)
    case status
    /// Events as `--events` writes them: all but `frame` when `events` is nil, else those named.
    case subscribe(events: [String]?)
    case unsubscribe
    /// A `position` event every `interval` of playback.
    case observeEvery(MediaTime)
    /// A `boundary` event when playing crosses one of `times` (of item `item`, or any item).
    case observeBoundary(times: [MediaTime], item: Int?)
    case removeObserver(Int)
    case load(ControlLoad)
    /// A picture of the screen: a PNG written to `path` on the player's machine, or returned as
    /// base64; `width` scales it down to at most that many pixels across, `format` (returned
    /// ones only) says PNG or JPEG. Which screen's: the request's `screen` (`ControlRequest.screen`).
    case screenshot(path: String?, width: Int? = nil, format: ImageFileFormat? = nil)
}

/// The `load` command: a config file, or a playlist given in the request, replacing the playlist
/// playing or appended to it.
public struct ControlLoad: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        case path(String)
        /// A config's `playlist` mapping as JSON text (the request's `playlist` object).
        case playlist(json: String)
    }

    public enum Mode: String, Sendable, Equatable, CaseIterable {
        case replace, append
    }

    public var source: Source
    public var mode: Mode
    /// The reply waits until the player has the playlist (its remote items downloaded and
    /// verified first), instead of coming as soon as the playlist is found valid.
    public var waits: Bool

    public init(source: Source, mode: Mode, waits: Bool = false) {
        self.source = source
        self.mode = mode
        self.waits = waits
    }
}
