/// Which requests may name one screen of `displays:` (a request's `screen`, `marquee ctl --screen
/// NAME`): those about what that screen plays and its events. The others act on the whole player
/// or the connection, and say so rather than quietly act on the main screen.
extension ControlCommand {
    /// Why this command cannot go to one screen; nil when it can: the status, a seek, a
    /// screenshot and every playback command, display power included, act on that screen's player
    /// (a mirror's being its source's), and a subscription or an observer follows its events.
    public var screenRefusal: String? {
        switch self {
        case .action(.quit): "quit ends the whole player, every screen with it; leave 'screen' out"
        case .action(.reload): "reload reads the config of every screen again; leave 'screen' out"
        case .action, .seek, .status, .screenshot, .subscribe, .observeEvery, .observeBoundary: nil
        case .load: "load replaces the main screen's playlist; leave 'screen' out"
        case .unsubscribe: "unsubscribe ends this connection's subscription, whichever screen's; leave 'screen' out"
        case .removeObserver: "removeObserver names the observer by its number alone; leave 'screen' out"
        }
    }
}
