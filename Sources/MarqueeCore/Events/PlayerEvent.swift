/// Everything the player reports. Names and fields are an interface (the `--events` log): change
/// them deliberately.
public enum PlayerEvent: Equatable, Sendable {
    /// The now-playing item changed; `title` is the item's config or M3U title, when it has one,
    /// and `id` its config `id:` (what a play ledger names the creative by).
    case itemStarted(index: Int, url: String, title: String? = nil, id: String? = nil)
    case itemEnded(index: Int, url: String, reason: FinishReason, message: String?)
    case playbackStateChanged(from: PlaybackState, to: PlaybackState)
    case loadStateChanged(LoadState)
    /// The position moved other than by playing: a seek completed.
    case timeJumped(from: MediaTime, to: MediaTime)
    case playbackStalled
    case durationAvailable(MediaTime)
    case naturalSizeAvailable(width: Int, height: Int)
    case scalingModeChanged(ScalingMode)
    case repeatModeChanged(RepeatMode)
    case error(message: String)
    /// The software volume or mute changed (volumeUp, volumeDown, toggleMute).
    case volumeChanged(volume: Double, muted: Bool)
    /// `--trace-frames`: one per presented or dropped frame. `time` is when it appeared on the
    /// presentation timeline (items laid end to end), `pts` its source timestamp. In frame-locked
    /// playback `wall` is when it was put on screen by CLOCK_REALTIME (seconds since 1970), so
    /// traces of players on different devices can be laid side by side.
    case frame(item: Int, pts: MediaTime, time: MediaTime, dropped: Bool, wall: Double? = nil)
    /// A command reached the player (a key, a signal, a control interface), logged when the
    /// player applies it so it sits in order with its effects.
    case command(ControlAction, source: CommandSource)
    /// A reloaded config replaced the playlist: `itemCount` items, in effect `immediately` or
    /// from the end of the item playing (the item boundary).
    case queueReplaced(itemCount: Int, immediately: Bool)
    /// Playback crossed one of the item's config `cues` (a media time), playing, not seeking.
    case boundary(item: Int, time: MediaTime)
    /// The playback rate changed (AVPlayer's rateDidChange), and what the sound does at it.
    case rateChanged(rate: Double, sound: SoundAtRate)
    /// The display went off or on (displayOff, displayOn, toggleDisplay).
    case displayPowerChanged(on: Bool)
    /// The timetable moved to another daypart, or changed which of its items are in their windows:
    /// `daypart` is nil when nothing is scheduled. The queue is replaced with its `itemCount` items,
    /// `immediately` (the daypart's `interrupt`, or the display is off) or from the end of the
    /// item playing; `itemStarted` says when the new list is on screen.
    case daypartChanged(daypart: String?, itemCount: Int, immediately: Bool)
    /// A remote item's media downloading into the cache: `bytes` of `total` (when the server said)
    /// on disk. Not a timeline event: it is said as the download goes, at most twice a second per
    /// file, and once when the file is cached (verified and in place) or has failed for good.
    case downloadProgress(url: String, bytes: Int64, total: Int64?, state: DownloadState)
    /// Frame-locked playback joined the wall (`sync:`): item `item` at `itemTime` into it (from its
    /// trimmed start) in cycle `cycle` since the epoch, which its first frame shows after the
    /// pre-roll. `reason`: start, late, stalled, resumed, clockChanged, reload, audio or failed.
    case wallSyncJoined(item: Int, itemTime: MediaTime, cycle: Int64, reason: String)

    /// Every event's name, for subscriptions that name the ones they want.
    public static let allNames: Set<String> = [
        "itemStarted", "itemEnded", "playbackStateChanged", "loadStateChanged", "timeJumped", "playbackStalled",
        "durationAvailable", "naturalSizeAvailable", "scalingModeChanged", "repeatModeChanged", "error", "volumeChanged",
        "frame", "command", "queueReplaced", "boundary", "rateChanged", "displayPowerChanged",
        "daypartChanged", "downloadProgress", "wallSyncJoined",
    ]

    /// The event's name in the log.
    public var name: String {
        switch self {
        case .itemStarted: "itemStarted"
        case .itemEnded: "itemEnded"
        case .playbackStateChanged: "playbackStateChanged"
        case .loadStateChanged: "loadStateChanged"
        case .timeJumped: "timeJumped"
        case .playbackStalled: "playbackStalled"
        case .durationAvailable: "durationAvailable"
        case .naturalSizeAvailable: "naturalSizeAvailable"
        case .scalingModeChanged: "scalingModeChanged"
        case .repeatModeChanged: "repeatModeChanged"
        case .error: "error"
        case .volumeChanged: "volumeChanged"
        case .frame: "frame"
        case .command: "command"
        case .queueReplaced: "queueReplaced"
        case .boundary: "boundary"
        case .rateChanged: "rateChanged"
        case .displayPowerChanged: "displayPowerChanged"
        case .daypartChanged: "daypartChanged"
        case .downloadProgress: "downloadProgress"
        case .wallSyncJoined: "wallSyncJoined"
        }
    }
}
