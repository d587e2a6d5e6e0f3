import Testing
import MarqueeCore

struct TransitionCase: Sendable, CustomTestStringConvertible {
    let name: String
    let inputs: [PlaybackStateMachine.Input]
    let state: PlaybackState
    var loadState: LoadState? = nil
    var status: ItemStatus? = nil
    /// The events of the last input only.
    let lastEvents: [PlayerEvent]
    var testDescription: String { name }
}

private let clip = "file:///media/a.mp4"
private let opened = PlaybackStateMachine.Input.itemOpened(index: 0, url: clip)
private let ready = PlaybackStateMachine.Input.itemReady(duration: MediaTime(seconds: 30), naturalWidth: 1920, naturalHeight: 1080)
private let readyBare = PlaybackStateMachine.Input.itemReady(duration: nil, naturalWidth: nil, naturalHeight: nil)
private let failure = PlaybackError(url: clip, reason: "Invalid data found when processing input")
private let t10 = MediaTime(seconds: 10)
private let t40 = MediaTime(seconds: 40)

@Suite struct PlaybackStateMachineTests {
    static let transitions: [TransitionCase] = [
        TransitionCase(name: "starts stopped", inputs: [], state: .stopped, loadState: .unknown, status: .unknown, lastEvents: []),
        TransitionCase(name: "play before any item only records the wish", inputs: [.play], state: .stopped, lastEvents: []),
        TransitionCase(name: "opening an item resets status", inputs: [.play, opened], state: .stopped, status: .unknown, lastEvents: []),
        TransitionCase(name: "ready with play wished starts playing and announces the item",
                       inputs: [.play, opened, ready], state: .playing, loadState: .playable, status: .readyToPlay,
                       lastEvents: [.itemStarted(index: 0, url: clip), .durationAvailable(MediaTime(seconds: 30)),
                                    .naturalSizeAvailable(width: 1920, height: 1080), .loadStateChanged(.playable),
                                    .playbackStateChanged(from: .stopped, to: .playing)]),
        TransitionCase(name: "ready without play wished holds paused", inputs: [opened, readyBare], state: .paused,
                       lastEvents: [.itemStarted(index: 0, url: clip), .loadStateChanged(.playable),
                                    .playbackStateChanged(from: .stopped, to: .paused)]),
        TransitionCase(name: "pause while playing", inputs: [.play, opened, ready, .pause], state: .paused,
                       lastEvents: [.playbackStateChanged(from: .playing, to: .paused)]),
        TransitionCase(name: "toggle flips play and pause", inputs: [.play, opened, ready, .togglePlayPause, .togglePlayPause],
                       state: .playing, lastEvents: [.playbackStateChanged(from: .paused, to: .playing)]),
        TransitionCase(name: "pause while stopped stays stopped", inputs: [.pause], state: .stopped, lastEvents: []),
        TransitionCase(name: "stop ends the item as userExited", inputs: [.play, opened, ready, .stop], state: .stopped,
                       loadState: .unknown, status: .unknown,
                       lastEvents: [.itemEnded(index: 0, url: clip, reason: .userExited, message: nil),
                                    .playbackStateChanged(from: .playing, to: .stopped), .loadStateChanged(.unknown)]),
        TransitionCase(name: "a failed item ends with playbackError and an error event, playing continues",
                       inputs: [.play, opened, ready, .itemFinished, .itemOpened(index: 1, url: clip), .itemFailed(failure)],
                       state: .playing, status: .failed(failure),
                       lastEvents: [.error(message: "file:///media/a.mp4: Invalid data found when processing input"),
                                    .itemEnded(index: 1, url: clip, reason: .playbackError, message: failure.reason)]),
        TransitionCase(name: "skipping away ends the item as userExited and keeps playing", inputs: [.play, opened, ready, .itemAbandoned],
                       state: .playing, lastEvents: [.itemEnded(index: 0, url: clip, reason: .userExited, message: nil)]),
        TransitionCase(name: "an item playing to its end", inputs: [.play, opened, ready, .itemFinished], state: .playing,
                       lastEvents: [.itemEnded(index: 0, url: clip, reason: .playbackEnded, message: nil)]),
        TransitionCase(name: "the next item hands over without leaving playing",
                       inputs: [.play, opened, ready, .itemFinished, .itemOpened(index: 1, url: clip), readyBare],
                       state: .playing, lastEvents: [.itemStarted(index: 1, url: clip)]),
        TransitionCase(name: "an item's title reaches its itemStarted",
                       inputs: [.play, .itemOpened(index: 0, url: clip, title: "Intro"), ready, .itemFinished,
                                .itemOpened(index: 1, url: clip, title: "Lobby Loop"), readyBare],
                       state: .playing, lastEvents: [.itemStarted(index: 1, url: clip, title: "Lobby Loop")]),
        TransitionCase(name: "an untitled item after a titled one starts without a title",
                       inputs: [.play, .itemOpened(index: 0, url: clip, title: "Intro"), ready, .itemFinished,
                                .itemOpened(index: 1, url: clip), readyBare],
                       state: .playing, lastEvents: [.itemStarted(index: 1, url: clip)]),
        TransitionCase(name: "queue exhausted stops", inputs: [.play, opened, ready, .itemFinished, .queueExhausted], state: .stopped,
                       lastEvents: [.playbackStateChanged(from: .playing, to: .stopped)]),
        TransitionCase(name: "seek forward", inputs: [.play, opened, ready, .seekStarted(from: t10, to: t40)], state: .seekingForward,
                       lastEvents: [.playbackStateChanged(from: .playing, to: .seekingForward)]),
        TransitionCase(name: "seek backward", inputs: [.play, opened, ready, .seekStarted(from: t40, to: t10)], state: .seekingBackward,
                       lastEvents: [.playbackStateChanged(from: .playing, to: .seekingBackward)]),
        TransitionCase(name: "a seek to where it is (a skip back clamped to the start) is backward",
                       inputs: [.play, opened, ready, .seekStarted(from: t10, to: t10)], state: .seekingBackward,
                       lastEvents: [.playbackStateChanged(from: .playing, to: .seekingBackward)]),
        TransitionCase(name: "a finished seek jumps time and resumes playing",
                       inputs: [.play, opened, ready, .seekStarted(from: t10, to: t40), .seekFinished(at: t40)], state: .playing,
                       lastEvents: [.timeJumped(from: t10, to: t40), .playbackStateChanged(from: .seekingForward, to: .playing)]),
        TransitionCase(name: "a seek from pause lands paused",
                       inputs: [opened, readyBare, .seekStarted(from: t40, to: t10), .seekFinished(at: t10)], state: .paused,
                       lastEvents: [.timeJumped(from: t40, to: t10), .playbackStateChanged(from: .seekingBackward, to: .paused)]),
        TransitionCase(name: "pause during a seek lands paused",
                       inputs: [.play, opened, ready, .seekStarted(from: t10, to: t40), .pause, .seekFinished(at: t40)], state: .paused,
                       lastEvents: [.timeJumped(from: t10, to: t40), .playbackStateChanged(from: .seekingForward, to: .paused)]),
        TransitionCase(name: "a stray seekFinished is ignored", inputs: [.play, opened, ready, .seekFinished(at: t40)], state: .playing,
                       lastEvents: []),
        TransitionCase(name: "a dry buffer interrupts playing", inputs: [.play, opened, ready, .bufferEmpty], state: .interrupted,
                       loadState: .stalled,
                       lastEvents: [.loadStateChanged(.stalled), .playbackStalled, .playbackStateChanged(from: .playing, to: .interrupted)]),
        TransitionCase(name: "the buffer recovering resumes playing", inputs: [.play, opened, ready, .bufferEmpty, .bufferLikelyToKeepUp],
                       state: .playing, loadState: .playthroughOK,
                       lastEvents: [.loadStateChanged(.playthroughOK), .playbackStateChanged(from: .interrupted, to: .playing)]),
        TransitionCase(name: "a dry buffer while paused only changes the load state", inputs: [opened, readyBare, .bufferEmpty],
                       state: .paused, loadState: .stalled, lastEvents: [.loadStateChanged(.stalled)]),
        TransitionCase(name: "play on a dry buffer waits interrupted", inputs: [opened, readyBare, .bufferEmpty, .play],
                       state: .interrupted, lastEvents: [.playbackStateChanged(from: .paused, to: .interrupted)]),
        TransitionCase(name: "pause while interrupted", inputs: [.play, opened, ready, .bufferEmpty, .pause], state: .paused,
                       lastEvents: [.playbackStateChanged(from: .interrupted, to: .paused)]),
        TransitionCase(name: "a seek ending on a dry buffer is interrupted",
                       inputs: [.play, opened, ready, .seekStarted(from: t10, to: t40), .bufferEmpty, .seekFinished(at: t40)],
                       state: .interrupted,
                       lastEvents: [.timeJumped(from: t10, to: t40), .playbackStateChanged(from: .seekingForward, to: .interrupted)]),
        TransitionCase(name: "repeat mode change is announced once", inputs: [.repeatModeSet(.shuffle), .repeatModeSet(.shuffle)],
                       state: .stopped, lastEvents: []),
        TransitionCase(name: "repeat mode change", inputs: [.repeatModeSet(.one)], state: .stopped, lastEvents: [.repeatModeChanged(.one)]),
        TransitionCase(name: "scaling mode change", inputs: [.scalingModeSet(.fill)], state: .stopped, lastEvents: [.scalingModeChanged(.fill)]),
        TransitionCase(name: "scaling mode unchanged is silent", inputs: [.scalingModeSet(.aspectFit)], state: .stopped, lastEvents: []),
    ]

    @Test(arguments: transitions)
    func transitionsRaiseTheDesignEvents(_ testCase: TransitionCase) {
        var machine = PlaybackStateMachine(repeatMode: .all, scalingMode: .aspectFit)
        var last: [PlayerEvent] = []
        for input in testCase.inputs { last = machine.handle(input) }
        #expect(machine.state == testCase.state)
        if let loadState = testCase.loadState { #expect(machine.loadState == loadState) }
        if let status = testCase.status { #expect(machine.itemStatus == status) }
        #expect(last == testCase.lastEvents)
    }

    @Test func everyStateIsReachable() {
        var reached: Set<PlaybackState> = []
        for testCase in Self.transitions {
            var machine = PlaybackStateMachine()
            for input in testCase.inputs {
                machine.handle(input)
                reached.insert(machine.state)
            }
        }
        #expect(reached == Set(PlaybackState.allCases))
    }
}

@Suite struct EventLogRecordTests {
    @Test(arguments: [
        (PlayerEvent.itemStarted(index: 2, url: "file:///m/a.mp4"), #"{"event":"itemStarted","index":2,"t":1.5,"url":"file:///m/a.mp4"}"#),
        (.itemStarted(index: 0, url: "file:///m/a.mp4", title: "Intro"),
         #"{"event":"itemStarted","index":0,"t":1.5,"title":"Intro","url":"file:///m/a.mp4"}"#),
        (.itemEnded(index: 0, url: "x.mp4", reason: .playbackError, message: "no such file"),
         #"{"event":"itemEnded","index":0,"message":"no such file","reason":"playbackError","t":1.5,"url":"x.mp4"}"#),
        (.itemEnded(index: 0, url: "x.mp4", reason: .playbackEnded, message: nil),
         #"{"event":"itemEnded","index":0,"reason":"playbackEnded","t":1.5,"url":"x.mp4"}"#),
        (.playbackStateChanged(from: .paused, to: .playing), #"{"event":"playbackStateChanged","from":"paused","state":"playing","t":1.5}"#),
        (.loadStateChanged(.playthroughOK), #"{"event":"loadStateChanged","state":"playthroughOK","t":1.5}"#),
        (.timeJumped(from: MediaTime(seconds: 10), to: MediaTime(5, per: 2)), #"{"event":"timeJumped","from":10,"t":1.5,"to":2.5}"#),
        (.playbackStalled, #"{"event":"playbackStalled","t":1.5}"#),
        (.durationAvailable(MediaTime(61, per: 2)), #"{"duration":30.5,"event":"durationAvailable","t":1.5}"#),
        (.naturalSizeAvailable(width: 1024, height: 576), #"{"event":"naturalSizeAvailable","height":576,"t":1.5,"width":1024}"#),
        (.scalingModeChanged(.aspectFill), #"{"event":"scalingModeChanged","mode":"aspectFill","t":1.5}"#),
        (.repeatModeChanged(.shuffle), #"{"event":"repeatModeChanged","mode":"shuffle","t":1.5}"#),
        (.error(message: "a \"quoted\" cause"), #"{"event":"error","message":"a \"quoted\" cause","t":1.5}"#),
        (.frame(item: 1, pts: MediaTime(5, per: 2), time: MediaTime(7, per: 2), dropped: false),
         #"{"event":"frame","item":1,"pts":2.5,"t":1.5,"time":3.5}"#),
        (.frame(item: 0, pts: .zero, time: .zero, dropped: true), #"{"dropped":true,"event":"frame","item":0,"pts":0,"t":1.5,"time":0}"#),
        (.command(.command(.next), source: .key(name: "KEY_NEXTSONG", device: "QEMU Virtio Keyboard", path: "/dev/input/event1")),
         #"{"command":"next","device":"QEMU Virtio Keyboard","event":"command","key":"KEY_NEXTSONG","path":"/dev/input/event1","source":"key","t":1.5}"#),
        (.command(.playItem(index: 2), source: .key(name: "KEY_KPENTER", device: "Keypad", path: "/dev/input/event4")),
         #"{"command":"playItem","device":"Keypad","event":"command","index":2,"key":"KEY_KPENTER","path":"/dev/input/event4","source":"key","t":1.5}"#),
        (.command(.quit, source: .signal(name: "SIGTERM")), #"{"command":"quit","event":"command","signal":"SIGTERM","source":"signal","t":1.5}"#),
        (.command(.command(.pause), source: .application), #"{"command":"pause","event":"command","source":"application","t":1.5}"#),
    ])
    func eventsEncodeAsOneStableJSONLine(event: PlayerEvent, expected: String) {
        #expect(EventLogRecord(secondsSinceStart: 1.5, event: event).jsonLine() == expected)
    }
}
