import Testing
@testable import MarqueeCore

private func frame(_ item: Int, _ millis: Int64, dropped: Bool = false) -> PlayerEvent {
    .frame(item: item, pts: MediaTime(millis, per: 1000), time: MediaTime(millis, per: 1000), dropped: dropped)
}

private func seconds(_ value: Int64, per: Int64 = 1) -> MediaTime { MediaTime(value, per: per) }

@Suite struct TimeObserverTests {
    @Test func aBoundaryCrossedWhilePlayingIsReportedOnceAtTheFrameThatReachesIt() {
        var observer = BoundaryTimeObserver(times: [seconds(12, per: 10), seconds(2)], item: 1)
        var crossed: [MediaTime] = []
        let events: [PlayerEvent] = [.itemStarted(index: 1, url: "a", title: nil)] + stride(from: 0, through: 2500, by: 100).map { frame(1, Int64($0)) }
        for event in events { crossed += observer.observe(event) }
        #expect(crossed == [seconds(12, per: 10), seconds(2)])
    }

    @Test func aSeekAcrossABoundaryDoesNotCountButPlayingOnAfterItDoes() {
        var observer = BoundaryTimeObserver(times: [seconds(1), seconds(5)])
        var crossed: [MediaTime] = []
        let events: [PlayerEvent] = [
            .itemStarted(index: 0, url: "a", title: nil), frame(0, 0), frame(0, 500),
            .timeJumped(from: seconds(1, per: 2), to: seconds(4)), frame(0, 4000), frame(0, 4500), frame(0, 5000),
        ]
        for event in events { crossed += observer.observe(event) }
        #expect(crossed == [seconds(5)])
    }

    @Test func anotherItemsFramesAndABoundaryAtTheFirstFrame() {
        var observer = BoundaryTimeObserver(times: [.zero, seconds(1)], item: 2)
        var crossed: [MediaTime] = []
        let events: [PlayerEvent] = [
            .itemStarted(index: 0, url: "a", title: nil), frame(0, 0), frame(0, 1000), frame(0, 1500),
            .itemStarted(index: 2, url: "c", title: nil), frame(2, 0), frame(2, 1000),
        ]
        for event in events { crossed += observer.observe(event) }
        #expect(crossed == [.zero, seconds(1)])
    }

    @Test func aPeriodicObserverSpeaksOncePerIntervalOnFirstFramesAndAfterJumps() {
        var observer = PeriodicTimeObserver(interval: seconds(1, per: 2))
        var said: [Int64] = []
        let events: [PlayerEvent] = [.itemStarted(index: 0, url: "a", title: nil)]
            + stride(from: 0, to: 1200, by: 100).map { frame(0, Int64($0)) }
            + [.timeJumped(from: seconds(11, per: 10), to: seconds(11, per: 10)), frame(0, 1100), frame(0, 1200),
               .itemStarted(index: 1, url: "b", title: nil), frame(1, 0), frame(1, 100), frame(1, 400, dropped: true), frame(1, 500)]
        for event in events {
            if let (item, position) = observer.observe(event) { said.append(Int64(item) * 100_000 + position.ticks(timescale: 1000)) }
        }
        #expect(said == [0, 500, 1000, 1100, 100_000, 100_500])
    }

    /// The player shows a seek's landing frame, then says `timeJumped`: one report per jump, at
    /// the landing (a landing in a new slot was reported twice: its frame, and the next one).
    @Test func aPeriodicObserverReportsASeekOnceAtItsLandingFrame() {
        var observer = PeriodicTimeObserver(interval: seconds(1, per: 2))
        var said: [Int64] = []
        let events: [PlayerEvent] = [.itemStarted(index: 0, url: "a", title: nil)]
            + stride(from: 0, to: 1200, by: 100).map { frame(0, Int64($0)) }
            + [frame(0, 3000), .timeJumped(from: seconds(11, per: 10), to: seconds(3)), frame(0, 3100),
               frame(0, 3300), .timeJumped(from: seconds(31, per: 10), to: seconds(33, per: 10)), frame(0, 3400), frame(0, 3500)]
        for event in events {
            if let (item, position) = observer.observe(event) { said.append(Int64(item) * 100_000 + position.ticks(timescale: 1000)) }
        }
        #expect(said == [0, 500, 1000, 3000, 3300, 3500])
    }
}

@Suite struct PlaybackStatusTests {
    @Test func foldsTheEventsIntoWhatIsOnScreen() {
        var status = PlaybackStatus(itemCount: 2, repeatMode: .all, scaling: .aspectFit, volume: 1)
        let events: [PlayerEvent] = [
            .playbackStateChanged(from: .stopped, to: .playing),
            .itemStarted(index: 1, url: "file:///b.mp4", title: "B"),
            .durationAvailable(seconds(10)),
            .naturalSizeAvailable(width: 640, height: 360),
            frame(1, 2000), frame(1, 2040), frame(1, 2080, dropped: true), frame(1, 5000),
            .playbackStalled,
            .volumeChanged(volume: 0.5, muted: true),
            .error(message: "x.mp4: not a media file"),
        ]
        for (n, event) in events.enumerated() { status.apply(event, at: Double(n)) }
        #expect(status.state == .playing)
        #expect(status.itemIndex == 1 && status.itemURL == "file:///b.mp4" && status.itemTitle == "B")
        #expect(status.position == seconds(5))
        #expect(status.elapsed == seconds(3))
        #expect(status.remaining == seconds(7))
        #expect(status.naturalSize == PixelSize(width: 640, height: 360))
        #expect(status.framesPresented == 3 && status.framesDropped == 1)
        #expect(status.volume == 0.5 && status.isMuted)
        #expect(status.lastError == "x.mp4: not a media file")
        #expect(status.accessLog.count == 1)
        #expect(status.accessLog[0].stalls == 1 && status.accessLog[0].framesDropped == 1 && status.accessLog[0].startedAt == 1)
        status.apply(.itemEnded(index: 1, url: "file:///b.mp4", reason: .playbackEnded, message: nil), at: 20)
        #expect(status.accessLog[0].endedAt == 20 && status.accessLog[0].finishReason == .playbackEnded)
    }

    @Test func theLogsKeepTheNewestHundred() {
        var status = PlaybackStatus(itemCount: 1, repeatMode: .all, scaling: .aspectFit, volume: 1)
        for n in 0..<250 {
            status.apply(.itemStarted(index: 0, url: "a", title: nil), at: Double(n))
            status.apply(.error(message: "e\(n)"), at: Double(n))
        }
        #expect(status.errorLog.count == 100 && status.errorLog.first?.message == "e150" && status.errorLog.last?.message == "e249")
        #expect(status.accessLog.count == 100 && status.accessLog.first?.startedAt == 150)
    }
}

@Suite struct ActionAtItemEndTests {
    @Test func pauseAdvancesAndPausesEveryTimeAndNoneHoldsTheItem() {
        var cursor = PlaylistCursor(itemCount: 3, repeatMode: .all)
        _ = cursor.start()
        cursor.actionAtItemEnd = .pause
        #expect(cursor.advanceAtEnd() == .pause(1))
        #expect(cursor.advanceAtEnd() == .pause(2))
        cursor.actionAtItemEnd = .none
        #expect(cursor.advanceAtEnd() == .idle)
        #expect(cursor.current == 2)
        cursor.actionAtItemEnd = .advance
        #expect(cursor.advanceAtEnd() == .play(0))
    }

    @Test func controlActionsAreLoggedWithTheirValues() {
        let source = CommandSource.control(client: 3, uid: 1000, pid: 42)
        let line = EventLogRecord(secondsSinceStart: 1, event: .command(.skip(by: -MediaTime(seconds: 10)), source: source)).jsonLine()
        #expect(line == #"{"client":3,"command":"skipBackward","event":"command","pid":42,"seconds":10,"source":"control","t":1,"uid":1000}"#)
        #expect(ControlAction.step(by: -3).description == "stepBackward 3")
        #expect(ControlAction.setVolume(0.25).description == "setVolume 0.25")
        #expect(source.description == "control client 3 (uid 1000, pid 42)")
    }
}
