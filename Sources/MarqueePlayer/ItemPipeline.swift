import Foundation
import MarqueeCore
import Synchronization

/// One queue item being opened and decoded on its own thread, a few frames ahead of presentation.
///
/// The engine starts the next item's pipeline while the current one plays, so its first frame is
/// decoded and waiting when the hand-over comes (gapless). Cancelling closes the queue; the decode
/// thread notices at its next push and lets go of the reader, which frees the decoder.
final class ItemPipeline: @unchecked Sendable {
    enum Output {
        /// The media opened and its timing is known; always the first output of a healthy item.
        case ready(Asset, ItemTiming)
        case frame(VideoPicture, pts: MediaTime, itemTime: MediaTime)
        /// Every frame has been delivered; the item lasts `length` of item time.
        case ended(length: MediaTime)
        case failed(PlaybackError)
    }

    /// Frames decoded ahead of presentation: enough to ride out a slow frame, few enough that
    /// memory stays flat (each is a full decoded picture).
    static let framesAhead = 4
    /// ...and no more than this many bytes of them, so the depth follows the picture size: a
    /// 1280x720 4:2:0 picture holds 1.4 MB (all four fit), a 1920x1080 one 3.1 MB (two, besides
    /// the one on screen), a 3840x2160 one 12.5 MB (one: a queue always takes one). At 1080p30
    /// two frames are 67 ms ahead, over eight times what decoding one takes (7.7 ms on two loaded
    /// cores), and the decoder's frame threads keep more in flight. Two frames fewer at 1080p were
    /// 6.3 MB of a 143 MB player (issue 27: `marquee play` against mpv's 117 MB on the same clip).
    static let decodedBytesAhead = 8 << 20
    /// When a stream gives no clue, the last frame of an open-ended item lasts this long.
    static let fallbackFrameDuration = MediaTime(1, per: 25)

    /// Where a seek enters the item: a time in the media's own timeline, and how far before it
    /// a keyframe may be shown instead of decoding forward to the exact frame.
    struct Entry: Sendable, Equatable {
        var time: MediaTime
        var toleranceBefore: MediaTime
    }

    let index: Int
    /// Tells this pipeline's audio from any other's on the device (a seek restarts the same index).
    let serial: Int
    let item: QueueItem
    let entry: Entry?
    private let outputs = ItemPipeline.makeOutputs()

    /// The queue of outputs, bounded by `framesAhead` and `decodedBytesAhead` (a picture weighs
    /// its `byteCount`, anything else nothing).
    static func makeOutputs() -> BlockingQueue<Output> {
        BlockingQueue(capacity: framesAhead, byteLimit: decodedBytesAhead) { output in
            if case .frame(let picture, _, _) = output { picture.byteCount } else { 0 }
        }
    }
    private let opener: MediaOpening
    /// The item's trimmed audio for the audio thread; nil when the player has no audio output.
    let audio: BlockingQueue<AudioPipelineOutput>?
    private let audioFormat: AudioFormat?

    /// Audio decoded ahead: about five seconds of typical 1024-frame blocks, so interleaving in the
    /// file never stalls video behind audio, while memory stays bounded.
    static let audioPiecesAhead = 256

    init(index: Int, serial: Int = 0, item: QueueItem, opener: MediaOpening, entry: Entry? = nil, audioFormat: AudioFormat? = nil) {
        self.index = index
        self.serial = serial
        self.item = item
        self.opener = opener
        self.entry = entry
        self.audioFormat = audioFormat
        audio = audioFormat.map { _ in BlockingQueue(capacity: Self.audioPiecesAhead) }
    }

    /// When the decode thread was started, on the real-time clock: the player's open timeout counts
    /// from here, whatever the playback clock.
    private(set) var startedAt = ContinuousClock.now
    /// The present thread has taken an output: the open is over, one way or the other. Present-thread state.
    private(set) var hasAnswered = false
    /// The opener has returned or thrown (set on the decode thread): an abandoned open that has not
    /// is still holding its thread.
    private let openReturned = Atomic<Bool>(false)
    var hasOpenReturned: Bool { openReturned.load(ordering: .acquiring) }
    /// The file changed after this pipeline opened it, seen while its decoder waited for room (an
    /// item prepared ahead waits for its turn) or when reading it failed: its decoded-ahead frames
    /// are of the old content, or its failure is, so the player opens the item afresh at its turn
    /// instead of taking it.
    private let sourceChanged = Atomic<Bool>(false)
    var isSourceStale: Bool { sourceChanged.load(ordering: .acquiring) }
    /// How long the decoder waits for room before it looks whether its file changed meanwhile.
    static let staleCheckInterval = 0.5

    /// What the decode thread converts its pictures into ahead of their turn; nil (prepared ahead,
    /// or an output without lent buffers): the present thread draws them.
    private let conversion = Mutex<PictureConversion?>(nil)

    /// Present thread: from now on, pictures are converted into `conversion`'s buffers (nil: no
    /// longer). The decode thread starts on those already queued at once, if it is waiting.
    func convertPictures(with conversion: PictureConversion?) {
        self.conversion.withLock { $0 = conversion }
        if conversion != nil { nudgeConversion() }
    }

    var pictureConversion: PictureConversion? { conversion.withLock { $0 } }

    /// A buffer came free: the decode thread, if it waits for room, converts the next picture now.
    func nudgeConversion() {
        outputs.nudge()
    }

    /// Decode thread: converts queued pictures, oldest first, while buffers are lent.
    private func convertQueuedPictures() {
        guard let conversion = pictureConversion else { return }
        conversion.convert { outputs.firstQueued(Self.waitingPicture) }
    }

    /// A queued picture the decode thread may still convert.
    private static func waitingPicture(_ output: Output) -> StagedPicture? {
        if case .frame(let picture as StagedPicture, _, _) = output, picture.isWaiting { picture } else { nil }
    }

    /// The decode thread is not detached from its own fate: a thread stuck in the kernel (a FIFO, a
    /// hung NFS path) is never joined, so nothing waits for it; it ends whenever the call returns.
    func start() {
        startedAt = .now
        // FFmpeg's frame threads, made by this one, inherit the name.
        let thread = Thread { [self] in
            ThreadName.set("marquee.decode")
            decode()
        }
        thread.name = "marquee.decode.\(index)"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Stops decoding and drops what was decoded ahead: none of it will be shown or heard.
    func cancel() {
        outputs.discard()
        audio?.discard()
    }

    /// The next output, waiting for the decoder; nil once cancelled and drained.
    func next() -> Output? {
        let output = outputs.pop()
        if output != nil { hasAnswered = true }
        return output
    }

    /// The next output, or nil if none arrives within `seconds` of real time (the caller decides
    /// whether that is a stall) or once cancelled and drained.
    func next(waitingAtMost seconds: Double) -> BlockingQueue<Output>.TimedPop {
        let result = outputs.pop(waitingAtMost: seconds)
        if case .element = result { hasAnswered = true }
        return result
    }

    /// The item time of the frame after the one just taken, if it is decoded already. Presenting
    /// never waits for it: a frame whose successor is not decoded yet cannot be dropped anyway.
    func upcomingFrameTime() -> MediaTime? {
        if case .frame(_, _, let itemTime) = outputs.peekIfAvailable() { return itemTime }
        return nil
    }

    /// The decoder is as far ahead as it may go: playback is likely to keep up.
    var isBufferFull: Bool { outputs.isFull }

    /// Nothing at all is decoded after what the present thread has taken, and more is to come:
    /// the source (or the decoder) has fallen behind.
    var isDry: Bool { outputs.peekIfAvailable() == nil && !hasFinished }

    /// The decode thread has delivered its last output (the item's end or its failure), or stopped.
    var hasFinished: Bool { finished.load(ordering: .acquiring) }
    private let finished = Atomic<Bool>(false)

    /// How far the reader has fetched ahead of decoding; a local reader never runs dry.
    var readAheadStatus: ReadAheadStatus {
        readerLock.withLock { openedReader?.readAheadStatus } ?? .local
    }
    var bytesRead: Int64 {
        readerLock.withLock { openedReader?.bytesRead } ?? 0
    }
    /// The open reader, kept only to ask its read-ahead from the present thread (the reader says
    /// that is safe from any thread); everything else about it belongs to the decode thread.
    private var openedReader: MediaReader?
    private let readerLock = NSLock()

    private func decode() {
        decodeMedia()
        convertRemainingPictures()
    }

    /// Decode thread, once the item is decoded to its end: the pictures still queued are converted
    /// as the present thread frees buffers, until each is converted, taken or dropped, so the item's
    /// last pictures are not left to the present thread. The reader is closed by then.
    private func convertRemainingPictures() {
        while outputs.firstQueued(Self.waitingPicture) != nil {
            convertQueuedPictures()
            outputs.waitForNudge(seconds: Self.staleCheckInterval)
        }
    }

    private func decodeMedia() {
        defer {
            readerLock.withLock { openedReader = nil }
            finished.store(true, ordering: .releasing)
        }
        do {
            // Cancelled meanwhile (the player gave up waiting for this open): the late reader is
            // dropped here, unused.
            let reader: MediaReader
            do {
                defer { openReturned.store(true, ordering: .releasing) }
                reader = try opener.open(item.source)
            }
            readerLock.withLock { openedReader = reader }
            let asset = reader.asset
            let timing: ItemTiming
            switch ItemTiming.resolve(start: item.start, end: item.end, duration: item.duration,
                                      mediaDuration: asset.duration, isStillImage: asset.isStillImage) {
            case .success(let resolved): timing = resolved
            case .failure(let error):
                fail(PlaybackError(url: item.url, reason: error.description))
                return
            }
            guard outputs.push(.ready(asset, timing)) else { return }
            let entryTime = asset.isStillImage ? .zero : entryTime(within: timing)
            let placer = audio.map { AudioPlacer(queue: $0, format: audioFormat!, timing: timing, entryTime: entryTime, asset: asset) }
            guard placer?.sendHeader(cutAtStart: entry != nil || entryTime > .zero) ?? true else { return }
            do {
                if entryTime > .zero { try reader.seek(to: entryTime) }
                try deliverMedia(from: reader, timing: timing, asset: asset, entryTime: entryTime, audio: placer)
            } catch {
                // Prepared ahead, it may fail before its turn on a file that changed since it opened.
                noteSourceChange(of: reader)
                throw error
            }
        } catch let error as PlaybackError {
            fail(error)
        } catch {
            fail(PlaybackError(url: item.url, reason: String(describing: error)))
        }
    }

    /// Marks the pipeline stale when its file changed since it was opened (asked on the decode thread).
    private func noteSourceChange(of reader: MediaReader) {
        if reader.hasSourceChanged { sourceChanged.store(true, ordering: .releasing) }
    }

    /// The item ends here: its audio, cancelled, takes no time on the audio thread.
    private func fail(_ error: PlaybackError) {
        audio?.discard()
        // A file changed under the reader: what was decoded ahead may already be its new bytes at
        // the old offsets, and the item must end within a frame slot, not four frames later.
        if isSourceStale { outputs.dropQueued() }
        outputs.push(.failed(error))
    }

    /// A seek enters at its target, kept inside the item's [start, end).
    private func entryTime(within timing: ItemTiming) -> MediaTime {
        guard let entry else { return timing.start }
        var time = max(entry.time, timing.start)
        if let end = timing.end, time >= end { time = max(timing.start, end - MediaTime(1, per: 1000)) }
        return time
    }

    /// Pictures and audio in the order the file interleaves them: pictures through the frame-exact
    /// trimmer to the present thread, audio through the sample-exact trimmer to the audio thread.
    /// Reading goes on until both have reached the item's end.
    private func deliverMedia(from reader: MediaReader, timing: ItemTiming, asset: Asset, entryTime: MediaTime,
                              audio placer: AudioPlacer?) throws {
        var trimmer: VideoTrimmer<VideoPicture>?
        var offset = MediaTime.zero
        var lastTimes: (previous: MediaTime?, last: MediaTime?) = (nil, nil)
        var videoDone = false
        var audioDone = placer == nil || !asset.mediaTypes.contains(.audio)
        // Where the pictures and sound the file gave end, in media time: a picture lasts as long as
        // the one before it did, else a frame at the track's rate.
        var decodedTo = MediaTime.zero
        var previousPicturePTS: MediaTime?
        func deliver(_ presented: [VideoTrimmer<VideoPicture>.Presented]) -> Bool {
            for frame in presented {
                let itemTime = frame.itemTime + offset
                let output = Output.frame(StagedPicture(frame.frame), pts: frame.pts, itemTime: itemTime)
                guard outputs.push(output, checkingEvery: Self.staleCheckInterval, whileWaiting: {
                    noteSourceChange(of: reader)
                }, whenNudged: convertQueuedPictures) else { return false }
                lastTimes = (lastTimes.last, itemTime)
                convertQueuedPictures()
            }
            return true
        }
        // What the last picture weighed: while pictures say it, decoding waits for room for another
        // like it before it decodes, rather than holding a decoded one while it waits (3.1 MB at
        // 1080p; the decoder's frame threads have the next one nearly done meanwhile).
        var pictureBytes = 0
        while !(videoDone && audioDone) {
            if !videoDone && pictureBytes > 0 {
                guard outputs.waitForRoom(for: pictureBytes, checkingEvery: Self.staleCheckInterval, whileWaiting: {
                    noteSourceChange(of: reader)
                }, whenNudged: convertQueuedPictures) else { return }
            }
            guard let media = try reader.nextMedia(audioFormat: placer == nil ? nil : audioFormat) else { break }
            switch media {
            case .picture(let picture):
                pictureBytes = picture.byteCount
                let pictureDuration = previousPicturePTS.map { picture.pts - $0 } ?? Self.frameDuration(of: asset)
                decodedTo = max(decodedTo, picture.pts + max(pictureDuration, .zero))
                previousPicturePTS = picture.pts
                guard !videoDone else { continue }
                if trimmer == nil {
                    let presentFrom = firstPresentedTime(keyframe: picture, entryTime: entryTime, timing: timing)
                    // Item times stay relative to the item's start, whatever the entry, so lengths
                    // and the timeline agree before and after a seek.
                    offset = presentFrom - timing.start
                    trimmer = VideoTrimmer(timing: ItemTiming(start: presentFrom, end: timing.end))
                }
                guard deliver(trimmer!.push(picture, pts: picture.pts)) else { return }
                videoDone = trimmer!.isComplete
            case .audio(let block):
                decodedTo = max(decodedTo, block.end)
                guard !audioDone, let placer else { continue }
                guard placer.add(block) else { return }
                if let end = timing.end, block.end >= end { audioDone = true }
            }
        }
        // The data ran out before the item's end: a file cut short fails instead of ending.
        if !(videoDone && audioDone), !asset.isStillImage,
           // What the source skipped (a missing HLS segment, reported on its own) is not missing at the end.
           let problem = TruncationRule.problem(decodedTo: decodedTo + reader.skippedMediaTime, timing: timing, declaredDuration: asset.duration,
                                                isEstimated: asset.isDurationEstimated) {
            if var last = trimmer { guard deliver(last.finish()) else { return } }
            fail(PlaybackError(url: item.url, reason: problem))
            return
        }
        if var last = trimmer {
            guard deliver(last.finish()) else { return }
            trimmer = last
        }
        guard placer?.sendEnd() ?? true else { return }
        // A span fixed by the media's duration is shorter by what the source skipped and decoding closed up.
        let skipped = timing.length == nil ? .zero : reader.skippedMediaTime
        outputs.push(.ended(length: max(.zero, length(of: timing, asset: asset, lastFrameTimes: lastTimes) - skipped)))
        outputs.close()
    }

    /// A keyframe within the seek's tolerance before the target is shown as it is; otherwise
    /// decoding goes on to the exact frame on screen at the target.
    private func firstPresentedTime(keyframe: VideoPicture, entryTime: MediaTime, timing: ItemTiming) -> MediaTime {
        if let entry, keyframe.pts <= entryTime, entryTime - keyframe.pts <= entry.toleranceBefore {
            return max(keyframe.pts, timing.start)
        }
        return entryTime
    }

    /// A trimmed or clamped item lasts exactly end − start. An open-ended one (live, unknown
    /// duration) lasts until its last frame has had its turn on screen.
    private func length(of timing: ItemTiming, asset: Asset, lastFrameTimes: (previous: MediaTime?, last: MediaTime?)) -> MediaTime {
        if let length = timing.length { return length }
        guard let last = lastFrameTimes.last else {
            return asset.duration.map { max(.zero, $0 - timing.start) } ?? .zero
        }
        return last + (lastFrameTimes.previous.map { last - $0 } ?? Self.frameDuration(of: asset))
    }

    /// One frame at the video track's rate, when it says.
    private static func frameDuration(of asset: Asset) -> MediaTime {
        asset.tracks.first { $0.mediaType == .video }?.frameRate.flatMap { $0.numerator > 0 ? MediaTime($0.denominator, per: $0.numerator) : nil }
            ?? fallbackFrameDuration
    }
}
