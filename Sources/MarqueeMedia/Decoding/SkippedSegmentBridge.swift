import CFFmpeg
import MarqueeCore

/// Closes the hole an HLS segment that could not be fetched leaves in the timeline.
///
/// FFmpeg's HLS demuxer logs `Failed to open segment N of playlist P` (after the server's
/// `HTTP error 404 Not Found`) and goes on with the next segment, whose timestamps carry on where
/// the missing one would have ended. Presented as stamped, the last picture before the hole would
/// stay on screen for the whole missing segment, and nobody would be told. So each missing segment
/// is reported once (`missingSegments(in:)`), and from then on each stream's first timestamp jump
/// is taken out of that stream's timestamps (`rebase`): the next segment plays at once, and the
/// item is that much shorter (`skipped`).
struct SkippedSegmentBridge {
    /// One segment the demuxer could not open: its URL (as the playlist names it) and the cause.
    struct MissingSegment: Equatable {
        let url: String
        let cause: String
    }

    private let timeBases: [Int: AVRational]
    /// Ticks taken out of each stream's timestamps.
    private var shift: [Int: Int64] = [:]
    /// Where each stream's next packet is expected to start (after `shift`), in its ticks.
    private var expectedNext: [Int: Int64] = [:]
    private var lastStamp: [Int: Int64] = [:]
    /// Streams whose jump over the missing segment has not come yet.
    private var awaitingJump: Set<Int> = []
    /// The media time taken out so far: the longest of the streams' shifts.
    private(set) var skipped = MediaTime.zero

    /// A jump smaller than this is jitter, not a segment: HLS segments last a second or more.
    static let smallestGap = MediaTime(1, per: 4)

    init(timeBases: [Int: AVRational]) {
        self.timeBases = timeBases
    }

    /// The segments the trail of one read says were skipped: each `Failed to open segment` line with
    /// the segment request before it and the HTTP error logged in between, if any.
    static func missingSegments(in trail: [String]) -> [MissingSegment] {
        var missing: [MissingSegment] = []
        var requested: String?
        var httpError: String?
        for line in trail {
            if line.hasPrefix(FFmpegLog.segmentRequest) {
                let url = line.dropFirst(FFmpegLog.segmentRequest.count).prefix { $0 != "'" }
                requested = String(url)
                httpError = nil
            } else if line.hasPrefix("HTTP error") {
                httpError = line
            } else if line.hasPrefix("Failed to open segment") {
                missing.append(MissingSegment(url: requested ?? "(unknown URL)", cause: httpError ?? line))
                requested = nil
                httpError = nil
            }
        }
        return missing
    }

    /// The packets that follow belong after a missing segment: each stream's next jump is closed.
    mutating func segmentWasMissed() {
        awaitingJump = Set(timeBases.keys)
    }

    /// Moves `packet`'s timestamps back by its stream's shift, after learning that shift from the
    /// stream's first jump since a segment was missed.
    mutating func rebase(_ packet: Packet) {
        let stream = packet.streamIndex
        guard let timeBase = timeBases[stream], let stamp = packet.timestamp else { return }
        var offset = shift[stream] ?? 0
        if awaitingJump.contains(stream), let expected = expectedNext[stream] {
            let jump = stamp - offset - expected
            if jump > Self.smallestGap.timestamp(in: timeBase) {
                offset += jump
                shift[stream] = offset
                awaitingJump.remove(stream)
                if let time = MediaTime(timestamp: offset, timeBase: timeBase) { skipped = max(skipped, time) }
            }
        }
        if offset != 0 { packet.shiftTimestamps(by: -offset) }
        let rebased = stamp - offset
        let duration = packet.pointer.pointee.duration > 0 ? packet.pointer.pointee.duration : lastStamp[stream].map { rebased - $0 } ?? 0
        expectedNext[stream] = rebased + max(duration, 0)
        lastStamp[stream] = rebased
    }
}
