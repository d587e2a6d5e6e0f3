
/// What each command of the vocabulary may touch, declared once: every transport checks a
/// request against its peer's role before acting on it.
extension ControlCommand {
    public var requiredRole: ControlRole {
        switch self {
        case .status, .subscribe, .unsubscribe, .observeEvery, .observeBoundary, .removeObserver:
            .observe
        // The picture anyone in front of the screen sees, returned in the reply.
        case .screenshot(path: nil, _, _):
            .observe
        case .seek:
            .control
        case .action(.quit), .action(.reload):
            .admin
        case .action:
            .control
        // What the player plays, reads or writes on its device.
        case .load, .screenshot:
            .admin
        }
    }

    /// The command's name as a client writes it, for refusals.
    public var name: String {
        switch self {
        case .action(let action): action.name
        case .seek: "seek"
        case .status: "status"
        case .subscribe: "subscribe"
        case .unsubscribe: "unsubscribe"
        case .observeEvery, .observeBoundary: "observe"
        case .removeObserver: "removeObserver"
        case .load: "load"
        case .screenshot(path: nil, _, _): "screenshot"
        case .screenshot: "screenshot to a file"
        }
    }
}
