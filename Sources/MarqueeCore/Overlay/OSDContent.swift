/// What the on-screen display says at one moment, already in words: the player fills it from its
/// state (labels from `TimeLabel`), and `OSDPainter` lays it out. Keeping it plain data means the
/// painter knows nothing about playback, and an unchanged content needs no repaint.
public struct OSDContent: Equatable, Sendable {
    public enum State: Sendable, Equatable {
        case playing, paused, stopped, buffering
    }

    public var state: State
    /// The item's title, or its file name when it has none.
    public var title: String
    /// 0-based; shown 1-based as "3/12". Not shown when `count` is 0.
    public var index: Int
    public var count: Int
    /// `TimeLabel.position`: "1:23".
    public var positionLabel: String
    /// "4:56", or "--:--" when unknown or live.
    public var durationLabel: String
    /// `TimeLabel.remaining`: "-3:33", or "--:--".
    public var remainingLabel: String
    /// 0...1; nil when unknown or live: the bar is drawn empty.
    public var progress: Double?
    /// "off", "one", "all" or "shuffle" (the config's words). "off" is not shown.
    public var repeatMode: String
    /// 0...1 while a volume command's bar is to show, else nil.
    public var volume: Double?
    public var muted: Bool
    /// The digits typed so far ("12" shows "Go to item 1 2 _"); nil when no entry is in progress.
    public var numericEntry: String?
    /// Armed "pause after this item": shows "Pause after this item".
    public var pauseAfterItem: Bool
    /// Seconds a stall has lasted, once it is long enough to say so ("Buffering 3 s"); nil otherwise.
    public var bufferingSeconds: Int?
    /// Which elements may appear (config `osd.show`); an element also needs something to say.
    public var show: Set<OSDElement>

    public init(state: State = .playing, title: String = "", index: Int = 0, count: Int = 0,
                positionLabel: String = TimeLabel.unknown, durationLabel: String = TimeLabel.unknown,
                remainingLabel: String = TimeLabel.unknown, progress: Double? = nil, repeatMode: String = "off",
                volume: Double? = nil, muted: Bool = false, numericEntry: String? = nil,
                pauseAfterItem: Bool = false, show: Set<OSDElement> = Set(OSDElement.allCases)) {
        self.state = state
        self.title = title
        self.index = index
        self.count = count
        self.positionLabel = positionLabel
        self.durationLabel = durationLabel
        self.remainingLabel = remainingLabel
        self.progress = progress
        self.repeatMode = repeatMode
        self.volume = volume
        self.muted = muted
        self.numericEntry = numericEntry
        self.pauseAfterItem = pauseAfterItem
        self.show = show
    }
}

/// One part of the OSD that config `osd.show` can turn on or off; the raw values are the config's words.
public enum OSDElement: String, CaseIterable, Sendable {
    case state, title, index, time, remaining, progress, repeatMode, volume, numericEntry, pauseAfterItem, buffering
}
