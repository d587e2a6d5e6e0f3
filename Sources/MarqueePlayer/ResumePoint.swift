import MarqueeCore

/// Where a restarted player picks up: item `index` of its queue at source time `time` (the media
/// time of the frame that was on screen, as `status` reports `position`). With a timetable, the
/// queue is `daypart`'s: the player resumes only when that daypart is the one it starts in.
public struct ResumePoint: Sendable, Equatable {
    public var index: Int
    public var time: MediaTime
    public var daypart: String?

    public init(index: Int, time: MediaTime, daypart: String? = nil) {
        self.index = index
        self.time = time
        self.daypart = daypart
    }
}
