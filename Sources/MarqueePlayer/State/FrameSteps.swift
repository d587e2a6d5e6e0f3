/// What the transport still has to do frame by frame: show the next frame at once (a seek's
/// landing, a step, the frame a stall resumes on), pause on it, step on by a count, step back by
/// a count.
///
/// It outlives items on purpose: a step on an item's last frame shows the next item's first and
/// pauses there, as a step forward does in AVPlayer (`step(byCount:)` crosses into the next item
/// of a queue); a move while paused shows the new item's first frame and stays paused on it.
struct FrameSteps: Equatable {
    /// Show the next frame at once, whatever its due time.
    var showsNextFrameNow = false
    /// Pause once the next frame is on screen.
    var pausesOnNextFrame = false
    /// Frames a step forward by a count still has to show (the one being shown included).
    private(set) var forwardPending = 0
    /// Steps back still to make after the seek in flight lands.
    private(set) var backPending = 0

    /// Shows the next `count` frames in turn, as fast as they decode, and pauses on the last.
    mutating func stepForward(by count: Int) {
        forwardPending = count
        showsNextFrameNow = true
        pausesOnNextFrame = true
    }

    /// A step back by `count` frames: the first step's seek is begun by the caller; these are the rest.
    mutating func stepBack(by count: Int) {
        backPending = max(0, count - 1)
    }

    /// A step back landed: true when another is to be made from the frame it landed on.
    mutating func takeBackStep() -> Bool {
        guard backPending > 0 else { return false }
        backPending -= 1
        return true
    }

    /// Another seek, a move or a stop came between: the rest of a step back is off.
    mutating func cancelBackSteps() {
        backPending = 0
    }

    /// What a frame put on screen leaves to do.
    enum AfterShown: Equatable {
        /// Play on.
        case playOn
        /// A step by several frames: show the next one at once.
        case showNext
        /// Pause on this frame.
        case pause
    }

    /// A frame went on screen: the next of a step by several frames, a pause on this one, or nothing.
    mutating func frameShown() -> AfterShown {
        if forwardPending > 1 {
            forwardPending -= 1
            showsNextFrameNow = true
            return .showNext
        }
        guard pausesOnNextFrame else { return .playOn }
        forwardPending = 0
        pausesOnNextFrame = false
        return .pause
    }

    /// A wall join puts playback where the wall is: nothing the viewer asked frame by frame holds.
    mutating func cancelAll() {
        self = FrameSteps()
    }
}
