/// A transport command a key, a signal or a control interface can issue (GCKUIMediaController's buttons).
/// The raw values are the names used in config key maps and in the event log.
public enum Command: String, CaseIterable, Sendable, Codable {
    case play, pause, togglePlayPause, stop
    case next, previous
    /// 30 seconds forward or back.
    case skipForward, skipBackward
    /// One frame forward or back; pauses first.
    case stepForward, stepBackward
    case cycleRepeatMode, cycleScalingMode
    /// After the current item ends, advance to the next and pause on its first frame.
    case pauseAfterCurrentItem
    case volumeUp, volumeDown, toggleMute
    /// Numeric entry: digits accumulate an item number, `playEnteredItem` jumps to it (1-based).
    case digit0, digit1, digit2, digit3, digit4, digit5, digit6, digit7, digit8, digit9
    case playEnteredItem
    /// Display power: the screen off (KMS CRTC inactive, the TV in standby over HDMI-CEC, decoding
    /// paused) or on again where it was.
    case displayOff, displayOn, toggleDisplay

    /// Whether a held key's autorepeat issues the command again, as the control vocabulary declares
    /// it (seeking and volume ramp while held; toggles and jumps act once per press).
    public var actsOnAutorepeat: Bool {
        ControlVocabulary.spec(named: rawValue)?.repeatsWhenHeld ?? false
    }

    /// The digit a numeric-entry command carries, if it is one.
    public var digit: Int? {
        switch self {
        case .digit0: 0
        case .digit1: 1
        case .digit2: 2
        case .digit3: 3
        case .digit4: 4
        case .digit5: 5
        case .digit6: 6
        case .digit7: 7
        case .digit8: 8
        case .digit9: 9
        default: nil
        }
    }

    /// The seconds skipForward and skipBackward move.
    public static let skipInterval = MediaTime(seconds: 30)
}
