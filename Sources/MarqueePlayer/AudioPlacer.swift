import MarqueeCore

/// On an item's decode thread: trims decoded audio to the sample and sends it to the audio thread,
/// each piece placed by its frame offset from the item's start.
final class AudioPlacer {
    private let queue: BlockingQueue<AudioPipelineOutput>
    private let format: AudioFormat
    private let timing: ItemTiming
    private let asset: Asset
    /// Kept audio starts at the entry (the item's start, or a seek's target).
    private let keptTiming: ItemTiming
    private let entryTime: MediaTime
    /// The first kept frame of the item, in the media's frame count: offsets count from it.
    private let startFrame: Int64

    init(queue: BlockingQueue<AudioPipelineOutput>, format: AudioFormat, timing: ItemTiming, entryTime: MediaTime, asset: Asset) {
        self.queue = queue
        self.format = format
        self.timing = timing
        self.asset = asset
        self.entryTime = entryTime
        keptTiming = ItemTiming(start: entryTime, end: timing.end)
        startFrame = timing.start.ticks(timescale: Int64(format.sampleRate), rounding: .up)
    }

    /// False once the item was cancelled.
    func sendHeader(cutAtStart: Bool) -> Bool {
        let rate = Int64(format.sampleRate)
        let cutAtEnd = !asset.isStillImage && timing.end.map { end in asset.duration.map { end < $0 } ?? false } ?? false
        let header = AudioRenderer.Header(length: AudioTrimmer.sampleCount(of: timing, sampleRate: format.sampleRate),
                                          firstOffset: entryTime.ticks(timescale: rate, rounding: .up) - startFrame,
                                          cutAtStart: cutAtStart, cutAtEnd: cutAtEnd)
        return queue.push(.header(header))
    }

    /// Sends the part of `block` inside the item; false once the item was cancelled.
    func add(_ block: AudioBlock) -> Bool {
        guard block.format == format else {
            assertionFailure("the reader delivered \(block.format), asked for \(format)")
            return true
        }
        let kept = AudioTrimmer.keptSamples(pts: block.pts, count: block.frameCount, sampleRate: format.sampleRate, timing: keptTiming)
        guard !kept.isEmpty else { return !queue.isClosed }
        let channels = format.channelCount
        let firstFrame = block.pts.ticks(timescale: Int64(format.sampleRate), rounding: .toNearestOrAwayFromZero) + Int64(kept.lowerBound)
        let samples = Array(block.samples[(kept.lowerBound * channels)..<(kept.upperBound * channels)])
        return queue.push(.piece(AudioPiece(offset: firstFrame - startFrame, samples: samples)))
    }

    /// The item's audio is complete.
    func sendEnd() -> Bool {
        defer { queue.close() }
        return queue.push(.end)
    }
}
