/// Decides, frame by frame in decode order, which frames of an item are presented and when.
///
/// The first frame presented is the one that would be on screen at `start` (the last with
/// pts ≤ start, or the first frame when none is); it is shown from item time 0. Frames whose pts
/// is at or after `end` are never presented. Deciding the first frame needs the frame after it,
/// so one frame is held back until its successor (or the end of the stream) arrives.
public struct VideoTrimmer<Frame> {
    public struct Presented {
        public let frame: Frame
        public let pts: MediaTime
        /// When it appears, in item time: 0 for the first presented frame.
        public let itemTime: MediaTime
    }

    public let timing: ItemTiming
    private var held: (frame: Frame, pts: MediaTime)?
    private var hasPresented = false
    /// True once a frame at or past `end` was seen: decoding this item can stop.
    public private(set) var isComplete = false

    public init(timing: ItemTiming) {
        self.timing = timing
    }

    /// Offers the next decoded frame (pts ascending); returns what became presentable.
    public mutating func push(_ frame: Frame, pts: MediaTime) -> [Presented] {
        guard !isComplete else { return [] }
        if let end = timing.end, pts >= end {
            isComplete = true
            return releaseHeld()
        }
        if !hasPresented {
            // Still looking for the frame on screen at `start`.
            if pts <= timing.start {
                held = (frame, pts)
                return []
            }
            var released = releaseHeld()
            released.append(present(frame, pts: pts))
            return released
        }
        return [present(frame, pts: pts)]
    }

    /// The stream ended: release a held frame (a clip whose every frame is before `start` still
    /// shows its last one rather than nothing).
    public mutating func finish() -> [Presented] {
        isComplete = true
        return releaseHeld()
    }

    private mutating func releaseHeld() -> [Presented] {
        guard let (frame, pts) = held else { return [] }
        held = nil
        return [present(frame, pts: pts)]
    }

    private mutating func present(_ frame: Frame, pts: MediaTime) -> Presented {
        hasPresented = true
        return Presented(frame: frame, pts: pts, itemTime: max(pts, timing.start) - timing.start)
    }
}
