import MarqueeCore

/// After a key frame seek, judges from the first frames decoded whether decoding started early
/// enough for the target:
/// - video from a key frame at or before the target, so that the frame on screen at the target and
///   every frame after it decode whole. A container seeks by decode time, so with B-frames the key
///   frame it lands on can show after the target; the pictures an open GOP puts before its key
///   frame (in presentation order) refer to the GOP before and are not enough either;
/// - audio at least its codec's pre-roll before the target (see `AudioPreRoll`).
///
/// A stream whose first frame is the first of the stream passes: nothing earlier exists.
struct SeekCheck {
    enum Verdict: Equatable {
        case undecided
        case farEnough
        case tooLate
    }

    /// Pictures without the key frame flag taken before the first flagged one, at most, before the
    /// video is judged on their times alone (a decoder that flags no key frames, an intra-refresh
    /// stream): more would hold many decoded pictures at once.
    static let unflaggedPictureLimit = 8
    /// Audio this far past the target with no picture yet: the video landed where nothing decodes
    /// (a transport stream seeks by position, to any packet, not to a key frame), and its first
    /// picture will be a key frame after the target. Files keep their streams within a second of
    /// each other (MPEG-TS muxers 0.7 s); deciding here spares decoding audio up to that key frame.
    static let interleaveSlack = MediaTime(seconds: 1)

    let target: MediaTime
    let audioPreRoll: MediaTime
    /// Media times of the streams' first frames, as the container states them.
    let videoStart: MediaTime?
    let audioStart: MediaTime?
    private(set) var video: Verdict
    private(set) var audio: Verdict
    private var unflaggedPictures = 0
    private var picturesSeen = 0

    init(target: MediaTime, checksVideo: Bool, checksAudio: Bool, audioPreRoll: MediaTime,
         videoStart: MediaTime?, audioStart: MediaTime?) {
        self.target = target
        self.audioPreRoll = audioPreRoll
        self.videoStart = videoStart
        self.audioStart = audioStart
        video = checksVideo ? .undecided : .farEnough
        audio = checksAudio ? .undecided : .farEnough
    }

    /// Nothing more is needed: both streams passed, or one came too late (seek further back).
    var isDecided: Bool {
        video == .tooLate || audio == .tooLate || (video != .undecided && audio != .undecided)
    }

    var isFarEnough: Bool { video == .farEnough && audio == .farEnough }

    mutating func notePicture(at pts: MediaTime, isKeyFrame: Bool) {
        guard video == .undecided else { return }
        picturesSeen += 1
        let early = pts <= target || videoStart.map { pts <= $0 } ?? false
        if isKeyFrame || !early {
            // Unflagged pictures that show after the target before any key frame came: whatever the
            // key frame's time, the picture on screen at the target was not decoded from it.
            video = early ? .farEnough : .tooLate
            return
        }
        unflaggedPictures += 1
        if unflaggedPictures >= Self.unflaggedPictureLimit { video = .farEnough }
    }

    /// `pts` is nil for a frame without a timestamp, which cannot be judged and passes.
    mutating func noteAudio(at pts: MediaTime?) {
        if video == .undecided, picturesSeen == 0, let pts, pts > target + Self.interleaveSlack { video = .tooLate }
        guard audio == .undecided else { return }
        guard let pts else {
            audio = .farEnough
            return
        }
        audio = pts <= target - audioPreRoll || audioStart.map { pts <= $0 } ?? false ? .farEnough : .tooLate
    }

    /// The input ended, or reading ahead reached its bound, with a stream still undecided. Video
    /// that gave no picture at all landed where nothing decodes (see `interleaveSlack`) or past its
    /// last frame: earlier is better.
    /// Unflagged pictures at or before the target pass; so does audio that has not started (it
    /// starts later in the file, or ended before the target).
    mutating func settle() {
        if video == .undecided { video = picturesSeen == 0 ? .tooLate : .farEnough }
        if audio == .undecided { audio = .farEnough }
    }
}
