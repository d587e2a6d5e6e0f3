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

    let index: Int
    let item: QueueItem
    private let outputs = BlockingQueue<Output>(capacity: framesAhead)
    private let opener: MediaOpening

    init(index: Int, item: QueueItem, opener: MediaOpening) {
        self.index = index
        self.item = item
        self.opener = opener
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
            if timing.start > .zero && !asset.isStillImage { try reader.seek(to: timing.start) }
            try deliverFrames(from: reader, timing: timing, asset: asset)
        } catch let error as PlaybackError {
            outputs.push(.failed(error))
        } catch {
            outputs.push(.failed(PlaybackError(url: item.url, reason: String(describing: error))))
        }
    }

    private func deliverFrames(from reader: MediaReader, timing: ItemTiming, asset: Asset) throws {
        var trimmer = VideoTrimmer<VideoPicture>(timing: timing)
        var lastTimes: (previous: MediaTime?, last: MediaTime?) = (nil, nil)
        func deliver(_ presented: [VideoTrimmer<VideoPicture>.Presented]) -> Bool {
            for frame in presented {
                guard outputs.push(.frame(frame.frame, pts: frame.pts, itemTime: frame.itemTime)) else { return false }
                lastTimes = (lastTimes.last, frame.itemTime)
            }
            return true
        }
        while !trimmer.isComplete, let picture = try reader.nextPicture() {
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
