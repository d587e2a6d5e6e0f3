import MarqueeCore

/// One request from a control client, as parsed from its line:
/// `{"id":7,"command":"seek","to":83.2,"toleranceBefore":0,"toleranceAfter":0}`.
public struct ControlRequest: Sendable, Equatable {
    /// Echoed in the reply so a client can match replies to requests; any JSON number or string.
    public var id: ControlRequestID?
    public var command: ControlCommand
    /// The screen of `displays:` the request is for, by its name (a mirror: its source); nil: the
    /// main one. Only commands about what one screen plays take it (`ControlCommand.screenRefusal`).
    public var screen: String? = nil
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
