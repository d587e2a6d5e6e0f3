import MarqueeCore
@testable import MarqueeMedia
import Testing

/// The rules that decide whether a seek reached back far enough, and the audio frame grid that
/// puts Matroska's millisecond stamps back on the samples.
@Suite struct SeekCheckTests {
    private func check(audio: Bool = false) -> SeekCheck {
        SeekCheck(target: MediaTime(seconds: 1), checksVideo: true, checksAudio: audio, audioPreRoll: MediaTime(1, per: 10),
                  videoStart: .zero, audioStart: .zero)
    }

    @Test func aKeyFrameAfterTheTargetIsTooLate() {
        var check = check()
        check.notePicture(at: MediaTime(26, per: 25), isKeyFrame: true)
        #expect(check.video == .tooLate)
    }

    /// An open GOP's leading pictures come out before their key frame and show before it, but were
    /// decoded without the GOP before: the key frame decides.
    @Test func leadingPicturesWaitForTheKeyFrame() {
        var check = check()
        check.notePicture(at: MediaTime(23, per: 25), isKeyFrame: false)
        check.notePicture(at: MediaTime(24, per: 25), isKeyFrame: false)
        #expect(check.video == .undecided)
        check.notePicture(at: MediaTime(26, per: 25), isKeyFrame: true)
        #expect(check.video == .tooLate)
    }

    @Test func aKeyFrameAtTheTargetIsFarEnough() {
        var check = check()
        check.notePicture(at: MediaTime(seconds: 1), isKeyFrame: true)
        #expect(check.isFarEnough)
    }

    @Test func audioMustStartItsPreRollBeforeTheTarget() {
        var late = check(audio: true)
        late.noteAudio(at: MediaTime(95, per: 100))
        #expect(late.audio == .tooLate)
        var early = check(audio: true)
        early.noteAudio(at: MediaTime(9, per: 10))
        #expect(early.audio == .farEnough)
    }

    /// A seek that landed where nothing decodes (a transport stream mid-GOP) is too late.
    @Test func videoWithoutAPictureIsTooLate() {
        var check = check()
        check.settle()
        #expect(check.video == .tooLate)
    }

    /// Audio a second past the target and still no picture: the video will start after the target.
    @Test func audioFarPastTheTargetWithoutAPictureMakesTheVideoTooLate() {
        var check = check(audio: true)
        check.noteAudio(at: MediaTime(9, per: 10))
        check.noteAudio(at: MediaTime(19, per: 10))
        #expect(check.video == .undecided)
        check.noteAudio(at: MediaTime(21, per: 10))
        #expect(check.video == .tooLate)
    }

    /// AAC at 48 kHz in Matroska: 1024-sample frames stamped 0, 21, 42, 64 ms.
    @Test func gridPutsMillisecondStampsBackOnTheFrames() throws {
        let frames = [(MediaTime.zero, 1024), (MediaTime(21, per: 1000), 1024), (MediaTime(42, per: 1000), 1024)]
        let grid = try #require(AudioFrameGrid(firstFrames: frames.map { (time: $0.0, sampleCount: $0.1) }, sampleRate: 48_000,
                                               tolerance: MediaTime(1, per: 1000)))
        #expect(grid.snap(MediaTime(21, per: 1000)) == MediaTime(1024, per: 48_000))
        #expect(grid.snap(MediaTime(1216, per: 1000)) == MediaTime(57 * 1024, per: 48_000))  // 1216.0 ms, frame 57
        #expect(grid.snap(MediaTime(1230, per: 1000)) == MediaTime(1230, per: 1000), "off the grid: kept")
    }

    /// Opus in WebM: the decoder drops 312 samples of pre-skip from the first 960-sample frame.
    @Test func gridStartsWhereThePrimingWas() throws {
        let frames = [(time: MediaTime(7, per: 1000), sampleCount: 648), (time: MediaTime(21, per: 1000), sampleCount: 960),
                      (time: MediaTime(41, per: 1000), sampleCount: 960)]
        let grid = try #require(AudioFrameGrid(firstFrames: frames, sampleRate: 48_000, tolerance: MediaTime(1, per: 1000)))
        #expect(grid.snap(MediaTime(21, per: 1000)) == MediaTime(7, per: 1000) + MediaTime(648, per: 48_000))
    }
}
