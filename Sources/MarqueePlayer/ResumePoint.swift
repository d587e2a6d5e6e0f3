import MarqueeCore

/// Where a restarted player picks up: item `index` of its queue at source time `time` (the media
/// time of the frame that was on screen, as `status` reports `position`).
public struct ResumePoint: Sendable, Equatable {
    public var index: Int
    public var time: MediaTime

    public init(index: Int, time: MediaTime) {
        self.index = index
        self.time = time
    }
}
