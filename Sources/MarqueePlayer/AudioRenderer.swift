import Foundation
import MarqueeCore
import Synchronization

/// The audio thread: lays each item's trimmed audio end to end on the output, in the order the
/// present thread scheduled the items, so the sound runs on across item changes and loops with no
/// gap: silence where an item has no audio (a still, a video-only file, audio that ends early),
/// truncation at an item's end, and a few milliseconds of fade where audio is cut mid-stream.
///
/// At a playback rate other than 1 what it lays out is time-stretched on its way to the device
/// (`AudioTimeStretching`): the layout stays in item frames, and each anchor says at what rate the
/// device frames after it stand for item frames.
final class AudioRenderer: @unchecked Sendable {
    /// How an item's audio opens: written by its decode thread once the timing is known.
    struct Header: Sendable {
        /// Frames the item lasts from its start (nil: as long as its audio).
        var length: Int64?
        /// The frame the audio resumes at (a seek); 0 from the start.
        var firstOffset: Int64
        var cutAtStart: Bool
        var cutAtEnd: Bool
    }

    /// 2.5 ms at 48 kHz: long enough that a cut does not click, too short to hear as a fade.
    static let fadeFrames: Int64 = 120
    /// Silence is written in slices so a ten-second still never allocates ten seconds of zeros.
    static let silenceSliceFrames: Int64 = 4096

    let output: AudioOutput
    private let reportError: @Sendable (String) -> Void
    private var lastError: String?
    private let schedule = BlockingQueue<AudioSegment>(capacity: 64)
    private let finished = MonotonicCondition()
    private var isFinished = false
    private var previousSegmentWasCut = false
    /// The software volume the next write ramps to; set from the present thread.
    private let targetGain: Mutex<Float>
    /// The gain the last write ended at (audio thread only): a change ramps over one write, so a
    /// volume step never clicks.
    private var appliedGain: Float
    /// Where each segment's first frame went in the output's stream, oldest first; read by the
    /// present thread to map the device position back to an item's time.
    private let anchors = Mutex<[Anchor]>([])
    static let anchorsKept = 64
    private let startGate = MonotonicCondition()
    private var isStartHeld = false
    /// Silence to write before the first frame after the hold (`releaseStart(leadIn:)`), guarded
    /// by `startGate`.
    private var pendingLeadIn: Int64 = 0
    /// Frames handed to the output so far (audio thread only).
    private var framesSubmitted: Int64 = 0
    /// Segments with a lower serial are dropped, not written: Int.max drops all (a rate other than
    /// 1), a serial resumes the sound with the pipelines started from there on. Set by the present thread.
    private let discardBelow = Atomic<Int>(0)
    /// The segment being rendered is dropped (audio thread only).
    private var isDiscarding = false
    private var renderingSerial = 0
    /// Makes the stretchers; nil: the player never asks for another rate with sound.
    private let stretching: AudioTimeStretching?
    /// The rate the present thread asked for, as an exact ratio.
    private let targetRate = Mutex(MediaTime(1, per: 1))
    /// The rate what is written now is stretched to, and its stretcher (audio thread only).
    private var appliedRate = MediaTime(1, per: 1)
    private var stretcher: AudioTimeStretcher?

    /// Segment `serial` starts at frame `streamFrame` of the output's stream with item frame
    /// `itemFrame`; from there each device frame stands for `rate` item frames.
    struct Anchor: Equatable {
        var serial: Int
        var streamFrame: Int64
        var itemFrame: Int64
        var rate = MediaTime(1, per: 1)

        func itemFrame(atStreamFrame frame: Int64) -> Int64 {
            let played = frame - streamFrame
            if rate == MediaTime(1, per: 1) { return itemFrame + played }
            return itemFrame + played * rate.numerator / rate.denominator
        }
    }

    /// What the device is playing now: which segment, and which frame of its item (0 at the item's start).
    struct PlayingPosition: Equatable {
        var serial: Int
        var itemFrame: Int64
    }

    /// `reportError` hears each new kind of write failure once, not once per block.
    init(output: AudioOutput, gain: Float = 1, stretching: AudioTimeStretching? = nil,
         reportError: @escaping @Sendable (String) -> Void) {
        self.output = output
        self.stretching = stretching
        self.reportError = reportError
        targetGain = Mutex(gain)
        appliedGain = gain
    }

    /// The software volume for what is written from now on (0...1).
    func setGain(_ gain: Float) {
        targetGain.withLock { $0 = gain }
    }

    /// Drops segments whose serial is below `serial` instead of writing them (Int.max: all), so
    /// the decoders never wait for the audio thread; a segment dropped in part is dropped to its end.
    func discard(below serial: Int) {
        discardBelow.store(serial, ordering: .releasing)
    }

    /// Segment `serial`'s audio is written, not dropped: its position on the device means something.
    func plays(serial: Int) -> Bool {
        serial >= discardBelow.load(ordering: .acquiring)
    }

    /// What is written from now on is stretched to `rate` (an exact ratio; 1: as it is). The device
    /// still holds what was written before at the old pace, so the sound follows one buffer later.
    func setRate(_ rate: MediaTime) {
        targetRate.withLock { $0 = rate }
    }

    /// Pauses or resumes the device with the picture.
    func setPaused(_ paused: Bool) {
        output.setPaused(paused)
    }

    /// Which item frame the device is playing now; nil when the output has no clock or is not
    /// playing steadily.
    func playingPosition() -> PlayingPosition? {
        guard let played = output.framesPlayed() else { return nil }
        return anchors.withLock { anchors in
            guard let index = anchors.lastIndex(where: { $0.streamFrame <= played }) else { return nil }
            // Older anchors can never be played again.
            if index > 0 { anchors.removeFirst(index) }
            let anchor = anchors[0]
            return PlayingPosition(serial: anchor.serial, itemFrame: anchor.itemFrame(atStreamFrame: played))
        }
    }

    func start() {
        let thread = Thread { [self] in
            ThreadName.set("marquee.audio")
            while let segment = schedule.pop() { render(segment) }
            endStretch()
            // What was written plays out before the run ends: the last ~100 ms would be lost. Then
            // the device is closed, as a process exiting with it open never does.
            output.drain()
            output.close()
            finished.withLock {
                isFinished = true
                finished.broadcast()
            }
        }
        thread.name = "marquee.audio"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Queues an item's audio after everything scheduled before it.
    func schedule(_ segment: AudioSegment) {
        schedule.push(segment)
    }

    /// Ends the thread once what is scheduled has been written or cancelled. With a limit, returns
    /// after `seconds` at most: a device write that never returns is left to the process's exit.
    func finish(waitingAtMost seconds: Double? = nil) {
        schedule.close()
        let deadline = seconds.map { ContinuousClock.now + .seconds($0) }
        finished.withLock {
            while !isFinished { if !finished.wait(orUntil: deadline) { return } }
        }
    }

    private var channels: Int { output.format.channelCount }

    private func render(_ segment: AudioSegment) {
        guard case .header(let header)? = segment.audio.pop() else {
            // Cancelled or failed before its timing was known: it takes no time and no sound.
            return
        }
        var written = header.firstOffset
        // Each item is stretched from its own first frame: its anchor is exact.
        endStretch()
        renderingSerial = segment.serial
        beginStretch(at: header.firstOffset)
        let fadeIn = header.cutAtStart || previousSegmentWasCut
        let fadeInFrom = header.firstOffset
        var endedNaturally = false
        isDiscarding = !plays(serial: segment.serial)
        defer { isDiscarding = false }
        func gain(at frame: Int64) -> Float {
            var value: Float = 1
            if fadeIn, frame - fadeInFrom < Self.fadeFrames { value = Float(frame - fadeInFrom) / Float(Self.fadeFrames) }
            if header.cutAtEnd, let length = header.length, length - frame < Self.fadeFrames {
                value = min(value, Float(length - frame) / Float(Self.fadeFrames))
            }
            return max(0, value)
        }
        while let output = segment.audio.pop() {
            switch output {
            case .header:
                continue
            case .piece(let piece):
                if !isDiscarding && !plays(serial: segment.serial) { isDiscarding = true }
                if isDiscarding { continue }
                written = place(piece, at: written, length: header.length, gain: gain)
            case .end:
                if !isDiscarding && !plays(serial: segment.serial) { isDiscarding = true }
                if !isDiscarding, let length = header.length, written < length { writeSilence(frames: length - written, at: written) }
                endedNaturally = !isDiscarding
            }
        }
        previousSegmentWasCut = !endedNaturally
    }

    /// Writes a piece where it belongs after `written` frames: silence fills a gap before it, an
    /// overlap with what is already written is dropped, and nothing passes the item's length.
    private func place(_ piece: AudioPiece, at written: Int64, length: Int64?, gain: (Int64) -> Float) -> Int64 {
        var position = written
        if piece.offset > position {
            let gap = min(piece.offset, length ?? piece.offset) - position
            if gap > 0 { writeSilence(frames: gap, at: position) }
            position += max(gap, 0)
        }
        let pieceFrames = Int64(piece.samples.count / channels)
        let first = max(0, position - piece.offset)
        var last = pieceFrames
        if let length { last = min(last, length - piece.offset) }
        guard first < last else { return position }
        var samples = Array(piece.samples[Int(first) * channels..<Int(last) * channels])
        for frame in 0..<Int(last - first) {
            let factor = gain(piece.offset + first + Int64(frame))
            if factor < 1 {
                for channel in 0..<channels { samples[frame * channels + channel] *= factor }
            }
        }
        write(samples, at: piece.offset + first)
        return piece.offset + last
    }

    /// Multiplies by the volume, ramping linearly from the last write's gain to the current one.
    private func applyGain(to samples: inout [Float]) {
        let target = targetGain.withLock { $0 }
        let start = appliedGain
        appliedGain = target
        if start == 1 && target == 1 { return }
        let frames = samples.count / channels
        guard frames > 0 else { return }
        let step = (target - start) / Float(frames)
        for frame in 0..<frames {
            let factor = start == target ? target : start + step * Float(frame + 1)
            for channel in 0..<channels { samples[frame * channels + channel] *= factor }
        }
    }

    private func writeSilence(frames: Int64, at itemFrame: Int64) {
        var remaining = frames
        while remaining > 0 {
            let slice = min(remaining, Self.silenceSliceFrames)
            write([Float](repeating: 0, count: Int(slice) * channels), at: itemFrame + frames - remaining)
            remaining -= slice
        }
    }

    /// Starts laying out at `itemFrame` of the segment being rendered, at the rate asked for now:
    /// an anchor, and a stretcher when the rate is not 1.
    private func beginStretch(at itemFrame: Int64) {
        appliedRate = targetRate.withLock { $0 }
        if appliedRate != MediaTime(1, per: 1), let stretching {
            do {
                stretcher = try stretching.makeStretcher(rate: appliedRate.seconds, format: output.format)
            } catch {
                // Written at its own pace the sound drifts from the picture, but it never stops.
                reportOnce("audio at rate \(appliedRate.seconds): \(error)")
            }
        }
        addAnchor(at: itemFrame)
    }

    /// Device frames from here on stand for item frames from `itemFrame` on, at the stretcher's rate.
    private func addAnchor(at itemFrame: Int64) {
        let anchor = Anchor(serial: renderingSerial, streamFrame: framesSubmitted, itemFrame: itemFrame,
                            rate: stretcher == nil ? MediaTime(1, per: 1) : appliedRate)
        anchors.withLock { anchors in
            // Without a clock nobody prunes them; a device buffer never spans this many items.
            if anchors.count >= Self.anchorsKept { anchors.removeFirst() }
            anchors.append(anchor)
        }
    }

    /// Writes what the stretcher still holds and lets it go.
    private func endStretch() {
        guard let stretcher else { return }
        self.stretcher = nil
        // The tail of a segment that was dropped is dropped with it.
        guard !isDiscarding, plays(serial: renderingSerial) else { return }
        startGate.withLock { while isStartHeld { startGate.wait() } }
        do {
            submit(try stretcher.finish())
        } catch {
            reportOnce("audio at rate \(appliedRate.seconds): \(error)")
        }
    }

    /// Reports a failure unless it is the one reported last (a device fails block after block).
    private func reportOnce(_ message: String) {
        if message != lastError { reportError(message) }
        lastError = message
    }

    /// Until `releaseStart`, nothing reaches the device: the first write waits.
    func holdStart() {
        startGate.withLock { isStartHeld = true }
    }

    /// Lets the first write through. With `leadIn`, that many frames of silence go first, at item
    /// frames before the first (negative, so `playingPosition` says how long until the first frame
    /// sounds): the device's start-up time passes in them, and the first picture can go up when
    /// the first frame is heard instead of after it.
    func releaseStart(leadIn: Int64 = 0) {
        startGate.withLock {
            pendingLeadIn = leadIn
            isStartHeld = false
            startGate.broadcast()
        }
    }

    /// Writes item frames starting at `itemFrame` of the segment being rendered, stretched when
    /// the rate is not 1; a rate change starts a new stretch (and anchor) at that frame.
    private func write(_ samples: [Float], at itemFrame: Int64) {
        if isDiscarding { return }
        let leadIn = startGate.withLock { () -> Int64 in
            while isStartHeld { startGate.wait() }
            defer { pendingLeadIn = 0 }
            return pendingLeadIn
        }
        // Dropped while it waited for the first picture.
        if !plays(serial: renderingSerial) {
            isDiscarding = true
            return
        }
        if leadIn > 0 { writeLeadIn(leadIn) }
        if targetRate.withLock({ $0 }) != appliedRate {
            endStretch()
            beginStretch(at: itemFrame)
        }
        guard let stretcher else { return submit(samples) }
        do {
            submit(try stretcher.process(samples))
        } catch {
            // The rest of this stretch goes out at its own pace rather than not at all.
            reportOnce("audio at rate \(appliedRate.seconds): \(error)")
            self.stretcher = nil
            addAnchor(at: itemFrame)
            submit(samples)
        }
    }

    /// Silence before the segment's first frame, when nothing of it is written yet and it plays at
    /// its own pace: its anchor moves back by the lead-in, so the silence counts as item frames
    /// -leadIn ..< 0.
    private func writeLeadIn(_ frames: Int64) {
        guard stretcher == nil else { return }
        let moved = anchors.withLock { anchors -> Bool in
            guard let last = anchors.indices.last, anchors[last].serial == renderingSerial,
                  anchors[last].streamFrame == framesSubmitted else { return false }
            anchors[last].itemFrame -= frames
            return true
        }
        guard moved else { return }
        var remaining = frames
        while remaining > 0 {
            let slice = min(remaining, Self.silenceSliceFrames)
            submit([Float](repeating: 0, count: Int(slice) * channels))
            remaining -= slice
        }
    }

    /// Hands device frames to the output, at the volume.
    private func submit(_ samples: [Float]) {
        guard !samples.isEmpty else { return }
        var samples = samples
        applyGain(to: &samples)
        framesSubmitted += Int64(samples.count / channels)
        do {
            try output.write(samples)
            lastError = nil
        } catch {
            // A device that fails a write loses that audio, not the playlist.
            reportOnce("audio output: \(error)")
        }
    }
}
