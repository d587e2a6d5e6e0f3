import MarqueeCore
import Testing
@testable import MarqueePlayer

private let frame25 = MediaTime(1, per: 25)

/// A restart resuming its saved position: the first item shown is the saved one, its first frame
/// the one at the saved time (exact, pre-rolled), and the queue goes on from there.
@Suite struct ResumeTests {
    private func play(resumeAt point: ResumePoint?, configure: (inout PlayerSettings) -> Void = { _ in }) -> EventRecorder {
        let media = ScriptedMedia(["a": .video(frames: 50, frameDuration: frame25), "b": .video(frames: 50, frameDuration: frame25),
                                   "c": .video(frames: 25, frameDuration: frame25)])
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        settings.resumeAt = point
        configure(&settings)
        let recorder = EventRecorder()
        let player = QueuePlayer(items: [QueueItem(url: "a"), QueueItem(url: "b"), QueueItem(url: "c")], settings: settings, opener: media,
                                 video: HeadlessVideoOutput(size: PixelSize(width: 64, height: 36)), clock: VirtualClock(),
                                 events: { recorder.record($0) })
        player.start()
        player.waitUntilFinished()
        return recorder
    }

    @Test func theSavedItemStartsAtTheSavedFrameAndTheQueueGoesOn() {
        let recorder = play(resumeAt: ResumePoint(index: 1, time: MediaTime(123, per: 100)))
        let starts = recorder.events.compactMap { if case .itemStarted(let index, _, _, _) = $0 { index } else { nil } }
        #expect(starts == [1, 2])
        let shown = recorder.frames.filter { !$0.dropped }
        // 1.23 s lies in frame 30 (1.20 to 1.24): the frame on screen at the saved time comes first.
        #expect(shown.first.map { $0.item == 1 && $0.pts == frame25 * 30 } == true, "\(String(describing: shown.first))")
        // Due at once: the timeline is laid so the saved time is the start, not 1.23 s after it.
        #expect(shown.first.map { $0.time <= .zero } == true, "\(String(describing: shown.first))")
        #expect(shown.filter { $0.item == 1 }.count == 20)
        #expect(shown.filter { $0.item == 2 }.count == 25)
    }

    @Test func aPointPastTheQueueStartsFromTheTop() {
        let recorder = play(resumeAt: ResumePoint(index: 7, time: .zero))
        let starts = recorder.events.compactMap { if case .itemStarted(let index, _, _, _) = $0 { index } else { nil } }
        #expect(starts == [0, 1, 2])
    }

    @Test func withoutAPointTheQueueStartsFromTheTop() {
        let recorder = play(resumeAt: nil)
        #expect(recorder.frames.first.map { $0.item == 0 && $0.pts == .zero } == true)
    }

    /// With a timetable the saved index is into the daypart's queue: a point saved in the daypart
    /// on now resumes there; one saved in another daypart starts the one on now from its top.
    @Test(arguments: [("lunch", true), ("breakfast", false), (nil, false)] as [(String?, Bool)])
    func aScheduledPointResumesOnlyInItsDaypart(savedIn daypart: String?, resumes: Bool) {
        var settings = PlayerSettings()
        settings.resumeAt = ResumePoint(index: 1, time: MediaTime(2, per: 1), daypart: daypart)
        let (player, recorder) = QueuePlayerScheduleTests.play([
            (Daypart(name: "breakfast", schedule: QueuePlayerScheduleTests.window("06:00", "11:00"), itemSchedules: [nil, nil]), ["breakfast", "welcome"]),
            (Daypart(name: "lunch", schedule: QueuePlayerScheduleTests.window("11:00", "15:00"), itemSchedules: [nil, nil]), ["lunch", "soup"]),
        ], start: QueuePlayerScheduleTests.at("12:00:00"), settings: settings)
        player.start()
        #expect(recorder.recorder.wait { $0.contains { if case .itemStarted = $0 { true } else { false } } })
        QueuePlayerScheduleTests.stop(player)
        let first = recorder.recorder.frames.first { !$0.dropped }
        if resumes {
            // Soup (item 2 of lunch) from its frame at 2 s.
            #expect(recorder.starts.first?.url == "soup")
            #expect(first.map { $0.item == 1 && $0.pts == frame25 * 50 } == true, "\(String(describing: first))")
        } else {
            #expect(recorder.starts.first?.url == "lunch")
            #expect(first.map { $0.item == 0 && $0.pts == .zero } == true, "\(String(describing: first))")
        }
    }
}
