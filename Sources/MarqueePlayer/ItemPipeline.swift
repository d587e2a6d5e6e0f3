import Foundation
import MarqueeCore

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
    /// When a stream gives no clue, the last frame of an open-ended item lasts this long.
    static let fallbackFrameDuration = MediaTime(1, per: 25)

    /// Where a seek enters the item: a time in the media's own timeline, and how far before it
    /// a keyframe may be shown instead of decoding forward to the exact frame.
    struct Entry: Sendable, Equatable {
        var time: MediaTime
        var toleranceBefore: MediaTime
    }

    let index: Int
    let item: QueueItem
    let entry: Entry?
    private let outputs = BlockingQueue<Output>(capacity: framesAhead)
    private let opener: MediaOpening

    init(index: Int, item: QueueItem, opener: MediaOpening, entry: Entry? = nil) {
        self.index = index
        self.item = item
        self.opener = opener
        self.entry = entry
    }

    func start() {
        let thread = Thread { [self] in decode() }
        thread.name = "marquee.decode.\(index)"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    func cancel() {
        outputs.close()
    }

    /// The next output, waiting for the decoder; nil once cancelled and drained.
    func next() -> Output? {
        outputs.pop()
    }

    /// The item time of the frame after the one just taken, when it is a frame (waits for it).
    func upcomingFrameTime() -> MediaTime? {
        if case .frame(_, _, let itemTime) = outputs.peek() { return itemTime }
        return nil
    }

    private func decode() {
        do {
            let reader = try opener.open(item.url)
            let asset = reader.asset
            let timing: ItemTiming
            switch ItemTiming.resolve(start: item.start, end: item.end, duration: item.duration,
                                      mediaDuration: asset.duration, isStillImage: asset.isStillImage) {
            case .success(let resolved): timing = resolved
            case .failure(let error):
                outputs.push(.failed(PlaybackError(url: item.url, reason: error.description)))
                return
            }
            guard outputs.push(.ready(asset, timing)) else { return }
            let entryTime = asset.isStillImage ? .zero : entryTime(within: timing)
            if entryTime > .zero { try reader.seek(to: entryTime) }
            try deliverFrames(from: reader, timing: timing, asset: asset, entryTime: entryTime)
        } catch let error as PlaybackError {
            outputs.push(.failed(error))
        } catch {
            outputs.push(.failed(PlaybackError(url: item.url, reason: String(describing: error))))
        }
    }

    /// A seek enters at its target, kept inside the item's [start, end).
    private func entryTime(within timing: ItemTiming) -> MediaTime {
        guard let entry else { return timing.start }
        var time = max(entry.time, timing.start)
        if let end = timing.end, time >= end { time = max(timing.start, end - MediaTime(1, per: 1000)) }
        return time
    }

    private func deliverFrames(from reader: MediaReader, timing: ItemTiming, asset: Asset, entryTime: MediaTime) throws {
        var firstPicture = try reader.nextPicture()
        // A keyframe within the seek's tolerance before the target is shown as it is; otherwise
        // decoding goes on to the exact frame on screen at the target.
        var presentFrom = entryTime
        if let entry, let keyframe = firstPicture, keyframe.pts <= entryTime, entryTime - keyframe.pts <= entry.toleranceBefore {
            presentFrom = max(keyframe.pts, timing.start)
        }
        // Item times stay relative to the item's start, whatever the entry, so lengths and the
        // timeline agree before and after a seek.
        let offset = presentFrom - timing.start
        var trimmer = VideoTrimmer<VideoPicture>(timing: ItemTiming(start: presentFrom, end: timing.end))
        var lastTimes: (previous: MediaTime?, last: MediaTime?) = (nil, nil)
        func deliver(_ presented: [VideoTrimmer<VideoPicture>.Presented]) -> Bool {
            for frame in presented {
                let itemTime = frame.itemTime + offset
                guard outputs.push(.frame(frame.frame, pts: frame.pts, itemTime: itemTime)) else { return false }
                lastTimes = (lastTimes.last, itemTime)
            }
            return true
        }
        while !trimmer.isComplete, let picture = try firstPicture ?? reader.nextPicture() {
            firstPicture = nil
            guard deliver(trimmer.push(picture, pts: picture.pts)) else { return }
        }
        guard deliver(trimmer.finish()) else { return }
        outputs.push(.ended(length: length(of: timing, asset: asset, lastFrameTimes: lastTimes)))
        outputs.close()
    }

    /// A trimmed or clamped item lasts exactly end − start. An open-ended one (live, unknown
    /// duration) lasts until its last frame has had its turn on screen.
    private func length(of timing: ItemTiming, asset: Asset, lastFrameTimes: (previous: MediaTime?, last: MediaTime?)) -> MediaTime {
        if let length = timing.length { return length }
        guard let last = lastFrameTimes.last else {
            return asset.duration.map { max(.zero, $0 - timing.start) } ?? .zero
        }
        let frameDuration = lastFrameTimes.previous.map { last - $0 }
            ?? asset.tracks.first { $0.mediaType == .video }?.frameRate.flatMap { $0.numerator > 0 ? MediaTime($0.denominator, per: $0.numerator) : nil }
            ?? Self.fallbackFrameDuration
        return last + frameDuration
    }
}
