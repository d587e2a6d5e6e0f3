import MarqueeCore

/// Everything the present thread knows of the item it is playing, made when the item becomes
/// current and dropped at its end, the way mpv's `play_current_file` owns one file's whole life:
/// nothing of one item (its asset, its place, a seek in flight, its cues, when the next item
/// opens) can be read as the next one's, because the next one starts from a fresh value.
///
/// A seek or a join within the item replaces its pipeline and keeps the rest: it is the same item.
/// What outlives items on purpose (the picture on screen, the transport's frame steps, the
/// presentation clock) lives in `OnScreen`, `FrameSteps` and `PresentationClock`.
struct CurrentItem {
    /// Decodes the item from its start or, after a seek or a join, from where it entered.
    private(set) var pipeline: ItemPipeline
    /// Known once the pipeline says the item is ready (again after each seek, the same facts).
    var asset: Asset?
    var timing: ItemTiming?
    /// The next frame is the item's first, or a rejoin's first: it may start late, never early.
    var awaitsFirstFrame = true
    /// The item is ready and has pictures: the item after it is prepared once its first frame is
    /// up, since opening it competes for the CPU with that frame.
    var preparesNextAtFirstFrame = false
    /// Where the item is in media time (never before its start), for skips, steps and seeks.
    private(set) var position: MediaTime?
    /// The pts of the frame on screen (a step back lands just before it).
    private(set) var framePTS: MediaTime?
    /// The config's cue points of this item, once it is on screen.
    var cues: BoundaryTimeObserver?
    /// The seek whose first frame is awaited; it belongs to this item and ends with it.
    private(set) var seekInFlight: SeekRequest?
    /// The pipeline entered midway by a wall join: its readiness is announced as an item's, though
    /// it enters midway as a seek does. A seek afterwards is a seek.
    private(set) var isJoinedMidway: Bool
    /// The next item, remote, is opened when this one reaches this item time (`readAhead` before
    /// its end); nil: it is opened, or opens at the first frame.
    var nextOpensAt: (index: Int, itemTime: MediaTime)?

    init(pipeline: ItemPipeline, joinedMidway: Bool = false) {
        self.pipeline = pipeline
        isJoinedMidway = joinedMidway
    }

    var index: Int { pipeline.index }
    var item: QueueItem { pipeline.item }

    /// A frame of the item went on screen: its place follows it.
    mutating func track(pts: MediaTime) {
        framePTS = pts
        position = max(pts, timing?.start ?? .zero)
    }

    /// A seek reopens the item at its target: the new pipeline's first frame completes `seek`.
    /// Returns the seek it replaces, for its caller to complete with false.
    mutating func reopen(with pipeline: ItemPipeline, for seek: SeekRequest) -> SeekRequest? {
        let replaced = seekInFlight
        self.pipeline = pipeline
        seekInFlight = seek
        isJoinedMidway = false
        return replaced
    }

    /// The wall moved within this item: the new pipeline enters where the wall is, its first frame
    /// waits for its slot as an item's first does.
    /// (Its caller completed any seek in flight first: the wall overrides it.)
    mutating func rejoin(with pipeline: ItemPipeline) {
        self.pipeline = pipeline
        awaitsFirstFrame = true
        isJoinedMidway = false
    }

    /// The seek in flight, taken to be completed (by its landing frame, or with false).
    mutating func takeSeek() -> SeekRequest? {
        defer { seekInFlight = nil }
        return seekInFlight
    }

    /// The pipeline that is this item's now: one replaced by a seek or a join is not.
    func isPlaying(_ other: ItemPipeline) -> Bool {
        pipeline === other
    }
}
