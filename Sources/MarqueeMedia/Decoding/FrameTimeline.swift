import MarqueeCore

/// Turns decoded frames' timestamps into the media's own time: 0 at the media's start, strictly
/// increasing, exact where the stream gives exact times.
///
/// Containers do not start at 0: a transport stream typically starts at 1.4 s, a cut recording
/// anywhere. Item start and end times, seeks and durations all count from the media's start, so
/// the container's origin is taken off every frame. A frame without a timestamp, or one that would
/// go backwards (damage, a timestamp reset), follows its predecessor by one frame duration, so the
/// trimmer and the scheduler always see times that move forward.
struct FrameTimeline {
    /// The container time that is media time 0.
    let origin: MediaTime
    /// What a frame lasts when neither the frame nor the stream says.
    let defaultFrameDuration: MediaTime
    private var last: MediaTime?

    init(origin: MediaTime, defaultFrameDuration: MediaTime) {
        self.origin = origin
        self.defaultFrameDuration = defaultFrameDuration
    }

    /// The media time of the next frame in presentation order.
    /// - Parameters:
    ///   - stamp: the decoder's best-effort timestamp in container time, when it has one.
    ///   - duration: how long the previous frames of this stream last, when known.
    mutating func time(ofFrameStamped stamp: MediaTime?, duration: MediaTime?) -> MediaTime {
        let proposed = stamp.map { $0 - origin }
        let time: MediaTime
        if let last, proposed.map({ $0 <= last }) ?? true {
            time = last + (duration ?? defaultFrameDuration)
        } else {
            time = proposed ?? .zero
        }
        last = time
        return time
    }

    /// After a seek the next frame's own timestamp is trusted again, whatever came before.
    mutating func restart() {
        last = nil
    }
}
