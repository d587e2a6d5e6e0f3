import MarqueeCore

/// One request from a control client, as parsed from its line:
/// `{"id":7,"command":"seek","to":83.2,"toleranceBefore":0,"toleranceAfter":0}`.
public struct ControlRequest: Sendable, Equatable {
    /// Echoed in the reply so a client can match replies to requests; any JSON number or string.
    public var id: ControlRequestID?
    public var command: ControlCommand
}

/// A request's `id`, as the client wrote it.
public enum ControlRequestID: Sendable, Equatable {
    case integer(Int)
    case number(Double)
    case string(String)

    var jsonValue: Any {
        switch self {
        case .integer(let value): value
        case .number(let value): value
        case .string(let value): value
        }
    }
}

/// What a request asks for.
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
    /// A PNG of the screen: written to `path` on the player's machine, or returned as base64.
    case screenshot(path: String?)
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
}
