/// The transport's state, item status and load state, driven by what the user asks and what the
/// pipeline reports, and the events each change raises.
///
/// The engine owns threads and decoders; this type owns only the decisions, so every transition
/// is table-tested. It separates what the user wants (play or pause, AVPlayer's rate) from what is
/// happening: a seek or a dry buffer interrupts "playing" and the wish resumes it afterwards.
public struct PlaybackStateMachine: Sendable, Equatable {
    public private(set) var state: PlaybackState = .stopped
    public private(set) var loadState: LoadState = .unknown
    public private(set) var itemStatus: ItemStatus = .unknown
    /// The item being presented, once the engine has opened one.
    public private(set) var currentIndex: Int?
    /// Its URL as events show it: a password in it is hidden.
    public private(set) var currentURL = ""
    public private(set) var currentTitle: String?
    /// The config `id:` of the item in `currentIndex`, when it has one.
    public private(set) var currentID: String?
    /// The user's wish: play (true) or hold (false).
    public private(set) var wantsToPlay = false
    public private(set) var repeatMode: RepeatMode
    public private(set) var scalingMode: ScalingMode

    /// Where the running seek left from, for timeJumped.
    private var seekOrigin: MediaTime = .zero
    private var bufferDry = false

    public init(repeatMode: RepeatMode = .all, scalingMode: ScalingMode = .default) {
        self.repeatMode = repeatMode
        self.scalingMode = scalingMode
    }

    public enum Input: Equatable, Sendable {
        case play, pause, togglePlayPause, stop
        /// The engine made this item current; its status is unknown until it is ready or fails.
        case itemOpened(index: Int, url: String, title: String? = nil, id: String? = nil)
        /// The current item's first frame is ready; duration and natural size are known when non-nil.
        case itemReady(duration: MediaTime?, naturalWidth: Int?, naturalHeight: Int?)
        case itemFailed(PlaybackError)
        /// The current item played to its end.
        case itemFinished
        /// The user moved on (next, previous, a jump): the item ends as userExited, playback goes on.
        case itemAbandoned
        /// Nothing left in the queue (repeat off ran out).
        case queueExhausted
        case seekStarted(from: MediaTime, to: MediaTime)
        /// The seek landed at `at`; a superseded seek never reports this, the newest one does.
        case seekFinished(at: MediaTime)
        case bufferEmpty
        case bufferLikelyToKeepUp
        case repeatModeSet(RepeatMode)
        case scalingModeSet(ScalingMode)
    }

    @discardableResult
    public mutating func handle(_ input: Input) -> [PlayerEvent] {
        var events: [PlayerEvent] = []
        switch input {
        case .play:
            wantsToPlay = true
            if itemStatus == .readyToPlay && !isSeeking { move(to: bufferDry ? .interrupted : .playing, &events) }
        case .pause:
            wantsToPlay = false
            if currentIndex != nil && !isSeeking { move(to: .paused, &events) }
        case .togglePlayPause:
            return handle(wantsToPlay ? .pause : .play)
        case .stop:
            wantsToPlay = false
            endCurrentItem(.userExited, message: nil, &events)
            itemStatus = .unknown
            move(to: .stopped, &events)
            setLoadState(.unknown, &events)
        case .itemOpened(let index, let url, let title, let id):
            currentIndex = index
            currentURL = CredentialRedaction.redacted(url)
            currentTitle = title
            currentID = id
            itemStatus = .unknown
            bufferDry = false
        case .itemReady(let duration, let width, let height):
            guard let index = currentIndex else { break }
            itemStatus = .readyToPlay
            // Now-playing first, then the new item's facts, so observers reset before they read them.
            events.append(.itemStarted(index: index, url: currentURL, title: currentTitle, id: currentID))
            if let duration { events.append(.durationAvailable(duration)) }
            if let width, let height { events.append(.naturalSizeAvailable(width: width, height: height)) }
            setLoadState(.playable, &events)
            move(to: wantsToPlay ? .playing : .paused, &events)
        case .itemFailed(let error):
            itemStatus = .failed(error)
            events.append(.error(message: error.description))
            endCurrentItem(.playbackError, message: error.reason, &events)
        case .itemFinished:
            endCurrentItem(.playbackEnded, message: nil, &events)
        case .itemAbandoned:
            endCurrentItem(.userExited, message: nil, &events)
        case .queueExhausted:
            wantsToPlay = false
            move(to: .stopped, &events)
        case .seekStarted(let from, let to):
            guard currentIndex != nil else { break }
            seekOrigin = from
            // A seek that does not move forward re-enters the item from the keyframe at or before
            // where it is: backward. A skip back clamped to the item's start is one, even at 0 s.
            move(to: to > from ? .seekingForward : .seekingBackward, &events)
        case .seekFinished(let position):
            guard isSeeking else { break }
            events.append(.timeJumped(from: seekOrigin, to: position))
            move(to: settledState, &events)
        case .bufferEmpty:
            bufferDry = true
            setLoadState(.stalled, &events)
            if state == .playing {
                events.append(.playbackStalled)
                move(to: .interrupted, &events)
            }
        case .bufferLikelyToKeepUp:
            bufferDry = false
            setLoadState(.playthroughOK, &events)
            if state == .interrupted { move(to: .playing, &events) }
        case .repeatModeSet(let mode):
            if mode != repeatMode {
                repeatMode = mode
                events.append(.repeatModeChanged(mode))
            }
        case .scalingModeSet(let mode):
            if mode != scalingMode {
                scalingMode = mode
                events.append(.scalingModeChanged(mode))
            }
        }
        return events
    }

    private var isSeeking: Bool { state == .seekingForward || state == .seekingBackward }

    /// Where a finished seek lands: the user's wish, unless the buffer is dry.
    private var settledState: PlaybackState {
        guard wantsToPlay else { return .paused }
        return bufferDry ? .interrupted : .playing
    }

    private mutating func move(to next: PlaybackState, _ events: inout [PlayerEvent]) {
        guard next != state else { return }
        events.append(.playbackStateChanged(from: state, to: next))
        state = next
    }

    private mutating func setLoadState(_ next: LoadState, _ events: inout [PlayerEvent]) {
        guard next != loadState else { return }
        loadState = next
        events.append(.loadStateChanged(next))
    }

    private mutating func endCurrentItem(_ reason: FinishReason, message: String?, _ events: inout [PlayerEvent]) {
        guard let index = currentIndex else { return }
        // Proof of play pairs every end with its start: an item left before it appeared (a quick
        // run of `next`) ended nothing anyone saw. One that failed before it appeared still says
        // so, as playbackError.
        if itemStatus == .readyToPlay || reason == .playbackError {
            events.append(.itemEnded(index: index, url: currentURL, reason: reason, message: message))
        }
        currentIndex = nil
        currentURL = ""
        currentTitle = nil
        currentID = nil
    }
}
