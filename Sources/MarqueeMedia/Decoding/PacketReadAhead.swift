import CFFmpeg
import Foundation
import MarqueeCore

/// Reads a remote container's packets on a thread of its own, ahead of decoding, into a queue
/// bounded by media time (`MediaOpenOptions.readAhead`) and bytes, so that a link slower than real
/// time for a while is ridden out by what was fetched before, and the player can tell from
/// `status` whether the source keeps up (AVPlayerItem's `isPlaybackLikelyToKeepUp`).
///
/// The decode thread takes packets with `next(into:)` in the container's order; the end of the input
/// and a read failure come after the packets read before them, and stay there until a reposition.
/// While this exists, its thread is the container's only reader: repositioning goes through
/// `repositioning(_:)`, which waits for the read in flight, runs the seek, and drops the queue.
/// Packets in the queue are the queue's; `next(into:)` moves each payload to the caller's packet.
///
/// `@unchecked Sendable`: the thread shares it with the decode thread; every mutable field is
/// guarded by `condition`, and the container is only used by whichever side holds `reading` (the
/// thread) or has paused the thread (a reposition).
final class PacketReadAhead: @unchecked Sendable {
    /// What ends the packets: the end of the input, or the read error that ended it early.
    private enum Ending {
        case endOfFile
        case failure(FFmpegError)
    }

    private struct Queued {
        let packet: Packet
        let stream: Int
        /// How much media time this packet adds after the previous one of its stream.
        let span: MediaTime
        let size: Int
    }

    private enum ReadResult {
        case packet(Packet)
        case ended(Ending)
        /// A reposition or stop came while the demuxer kept saying "try again": nothing was read.
        case abandoned
    }

    private let container: InputContainer
    let target: MediaTime
    /// The streams whose packet timestamps measure the buffer (those being decoded), with their time bases.
    private let timeBases: [Int: AVRational]
    private let condition = MonotonicCondition()
    /// Hears each HLS segment skipped because the server would not give it.
    private let warn: @Sendable (String) -> Void
    /// Closes the timeline over skipped HLS segments; the read thread's alone, except `skipped`
    /// which is copied out under the lock.
    private var bridge: SkippedSegmentBridge
    /// Segments already reported: the HLS demuxer may try a missing one more than once. The read thread's alone.
    private var reportedSegments: Set<String> = []

    // Guarded by `condition`.
    private var queue: [Queued] = []
    private var ending: Ending?
    private var bufferedByStream: [Int: MediaTime] = [:]
    /// The timestamp of the last packet queued per stream, kept when the queue empties: the next
    /// packet's span is measured from it.
    private var lastQueuedTime: [Int: MediaTime] = [:]
    private var bytes = 0
    private var reading = false
    private var paused = false
    private var stopped = false
    private var skippedMedia = MediaTime.zero

    /// A safety cap whatever the media time: a stream with broken timestamps must not fill memory.
    static let byteLimit = 64 << 20
    static let packetLimit = 50_000
    /// One packet adds at most this much media time: a timestamp jump (a discontinuity, a lost HLS
    /// segment) is not media fetched ahead.
    static let largestSpan = MediaTime(1, per: 1)

    /// Starts reading at once. `streams` are the indexes of the streams being decoded.
    init(container: InputContainer, streams: [Int], target: Duration, warn: @escaping @Sendable (String) -> Void) {
        self.container = container
        self.warn = warn
        self.target = MediaTime(Int64(target / .microseconds(1)), per: 1_000_000)
        var timeBases: [Int: AVRational] = [:]
        for index in streams {
            timeBases[index] = container.withStream(at: index) { $0.pointee.time_base }
        }
        self.timeBases = timeBases
        bridge = SkippedSegmentBridge(timeBases: timeBases)
        let thread = Thread { [self] in
            ThreadName.set("marquee.read")
            run()
        }
        thread.name = "marquee.readahead"
        thread.qualityOfService = .userInitiated
        thread.start()
    }

    /// How much is fetched ahead of what was taken; safe from any thread, never blocks on the network.
    var status: ReadAheadStatus {
        condition.lock()
        defer { condition.unlock() }
        return ReadAheadStatus(buffered: bufferedByStream.values.max() ?? .zero, target: target, reachedEnd: ending != nil)
    }

    /// Media time taken out of the timeline where HLS segments were missing (see `SkippedSegmentBridge`).
    var skipped: MediaTime {
        condition.lock()
        defer { condition.unlock() }
        return skippedMedia
    }

    /// The next packet, waiting for it to be fetched; `.endOfFile` at the end, the read error after
    /// the last packet read before it.
    func next(into packet: Packet) throws(FFmpegError) -> InputContainer.ReadOutcome {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && ending == nil && !stopped { condition.wait() }
        if !queue.isEmpty {
            let taken = queue.removeFirst()
            bufferedByStream[taken.stream, default: .zero] -= taken.span
            bytes -= taken.size
            packet.take(from: taken.packet)
            condition.broadcast()  // there is room again
            return .packet
        }
        packet.unref()
        switch ending {
        case .failure(let error)?: throw error
        case .endOfFile?, nil: return .endOfFile
        }
    }

    /// Runs `body` (a seek) with the thread paused after its read in flight, then drops everything
    /// fetched from the old position and reads on from the new one.
    func repositioning<E: Error>(_ body: () throws(E) -> Void) throws(E) {
        condition.lock()
        paused = true
        while reading { condition.wait() }
        condition.unlock()
        defer {
            condition.lock()
            queue.removeAll()
            ending = nil
            // Timestamps are the container's again from the new position.
            bridge = SkippedSegmentBridge(timeBases: timeBases)
            skippedMedia = .zero
            bufferedByStream = [:]
            lastQueuedTime = [:]
            bytes = 0
            paused = false
            condition.broadcast()
            condition.unlock()
        }
        try body()
    }

    /// Ends the thread without waiting for it: a read in flight is interrupted (the container's
    /// cancel, which cannot be undone). The thread lets go of the container when it returns.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
        container.interrupt.cancel()
    }

    // MARK: The read thread

    private func run() {
        while waitForRoom() {
            let result = read()
            condition.lock()
            reading = false
            switch result {
            case .packet(let packet):
                enqueue(packet)
                skippedMedia = bridge.skipped
            case .ended(let end): ending = end
            case .abandoned: break
            }
            condition.broadcast()
            condition.unlock()
        }
    }

    /// False once stopped; otherwise waits until there is room and no reposition, and claims the container.
    private func waitForRoom() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !stopped && (paused || ending != nil || isFull) { condition.wait() }
        guard !stopped else { return false }
        reading = true
        return true
    }

    private var isFull: Bool {
        guard !queue.isEmpty else { return false }
        return bytes >= Self.byteLimit || queue.count >= Self.packetLimit
            || bufferedByStream.values.contains { $0 >= target }
    }

    private func read() -> ReadResult {
        let packet: Packet
        do throws(FFmpegError) {
            packet = try Packet()
        } catch {
            return .ended(.failure(error))
        }
        while true {
            do throws(FFmpegError) {
                guard try container.readPacket(into: packet) == .packet else { return .ended(.endOfFile) }
                noteSkippedSegments()
                bridge.rebase(packet)
                return .packet(packet)
            } catch where error.code == marquee_averror_eagain() {
                if isInterrupted { return .abandoned }
                Thread.sleep(forTimeInterval: StreamDemuxer.retryDelay)
            } catch {
                return .ended(.failure(error))
            }
        }
    }

    /// Warns once for each HLS segment the last read skipped, and has the bridge close the gap.
    private func noteSkippedSegments() {
        let missing = SkippedSegmentBridge.missingSegments(in: container.lastReadTrail)
            .filter { reportedSegments.insert($0.url).inserted }
        guard !missing.isEmpty else { return }
        bridge.segmentWasMissed()
        let source = CredentialRedaction.redacted(container.source.description)
        for segment in missing {
            let url = CredentialRedaction.redacted(segment.url)
            warn("\(source): segment \(url) is missing (\(segment.cause)); playing on from the next segment")
        }
    }

    private var isInterrupted: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped || paused
    }

    /// Adds `packet` to the queue, measuring the media time it adds to its stream. Call under the lock.
    private func enqueue(_ packet: Packet) {
        let stream = packet.streamIndex
        var span = MediaTime.zero
        if let timeBase = timeBases[stream],
           let time = packet.decodeTime(timeBase: timeBase) ?? packet.presentationTime(timeBase: timeBase) {
            if let last = lastQueuedTime[stream] {
                span = (time - last).clamped(to: .zero...Self.largestSpan)
            }
            lastQueuedTime[stream] = time
            bufferedByStream[stream, default: .zero] += span
        }
        bytes += packet.size
        queue.append(Queued(packet: packet, stream: stream, span: span, size: packet.size))
    }
}
