import Testing
import MarqueeCore

private func code(_ name: String) -> UInt16 { KeyName(name)!.code }

/// A key report at `milliseconds`.
private func key(_ name: String, _ action: KeyEvent.Action = .press, at milliseconds: Int64 = 0, resync: Bool = false) -> KeyEvent {
    KeyEvent(code: code(name), action: action, time: MediaTime(milliseconds, per: 1000), isResync: resync)
}

/// A press and its release.
private func tap(_ name: String, at milliseconds: Int64 = 0) -> [KeyEvent] {
    [key(name, .press, at: milliseconds), key(name, .release, at: milliseconds + 80)]
}

struct InterpreterCase: Sendable, CustomTestStringConvertible {
    let name: String
    let events: [KeyEvent]
    let intents: [KeyIntent]
    var testDescription: String { name }
}

@Suite struct KeyCommandInterpreterTests {
    static let cases: [InterpreterCase] = [
        InterpreterCase(name: "a mapped press issues its command, the release nothing",
                        events: tap("KEY_PLAYPAUSE"), intents: [.command(.togglePlayPause)]),
        InterpreterCase(name: "an unmapped key does nothing", events: tap("KEY_F7"), intents: []),
        InterpreterCase(name: "held seek repeats", events: [key("KEY_RIGHT"), key("KEY_RIGHT", .autorepeat, at: 500),
                                                            key("KEY_RIGHT", .autorepeat, at: 533), key("KEY_RIGHT", .release, at: 560)],
                        intents: [.command(.skipForward), .command(.skipForward), .command(.skipForward)]),
        InterpreterCase(name: "held volume repeats", events: [key("KEY_VOLUMEUP"), key("KEY_VOLUMEUP", .autorepeat, at: 500)],
                        intents: [.command(.volumeUp), .command(.volumeUp)]),
        InterpreterCase(name: "a held toggle acts once", events: [key("KEY_SPACE"), key("KEY_SPACE", .autorepeat, at: 500),
                                                                  key("KEY_SPACE", .autorepeat, at: 533)],
                        intents: [.command(.togglePlayPause)]),
        InterpreterCase(name: "a held next acts once", events: [key("KEY_NEXTSONG"), key("KEY_NEXTSONG", .autorepeat, at: 500)],
                        intents: [.command(.next)]),
        InterpreterCase(name: "KP3 KPENTER plays item 3", events: tap("KEY_KP3") + tap("KEY_KPENTER", at: 300),
                        intents: [.playItem(index: 2)]),
        InterpreterCase(name: "two digits", events: tap("KEY_KP1") + tap("KEY_KP2", at: 400) + tap("KEY_KPENTER", at: 900),
                        intents: [.playItem(index: 11)]),
        InterpreterCase(name: "held digits do not repeat", events: [key("KEY_KP4"), key("KEY_KP4", .autorepeat, at: 500),
                                                                    key("KEY_KP4", .release, at: 600)] + tap("KEY_KPENTER", at: 800),
                        intents: [.playItem(index: 3)]),
        InterpreterCase(name: "enter alone does nothing", events: tap("KEY_KPENTER"), intents: []),
        InterpreterCase(name: "item 0 does not exist", events: tap("KEY_KP0") + tap("KEY_KPENTER", at: 300), intents: []),
        InterpreterCase(name: "digits expire after the timeout", events: tap("KEY_KP5") + tap("KEY_KPENTER", at: 3_200), intents: []),
        InterpreterCase(name: "a new number after an expired one", events: tap("KEY_KP5") + tap("KEY_KP2", at: 3_500) + tap("KEY_KPENTER", at: 3_900),
                        intents: [.playItem(index: 1)]),
        InterpreterCase(name: "another command abandons the digits",
                        events: tap("KEY_KP7") + tap("KEY_KPPLUS", at: 200) + tap("KEY_KPENTER", at: 400),
                        intents: [.command(.volumeUp)]),
        InterpreterCase(name: "five digits are not an item number",
                        events: ["KEY_KP1", "KEY_KP2", "KEY_KP3", "KEY_KP4", "KEY_KP5"].enumerated().flatMap { tap($1, at: Int64($0) * 200) }
                            + tap("KEY_KPENTER", at: 1_200),
                        intents: []),
        InterpreterCase(name: "resynchronised presses change nothing",
                        events: [key("KEY_PLAYPAUSE", resync: true), key("KEY_RIGHT", resync: true), key("KEY_RIGHT", .release, at: 10, resync: true)],
                        intents: []),
        InterpreterCase(name: "a key held across dropped events keeps repeating",
                        events: [key("KEY_VOLUMEDOWN", resync: true), key("KEY_VOLUMEDOWN", .autorepeat, at: 40)],
                        intents: [.command(.volumeDown)]),
    ]

    @Test(arguments: cases)
    func turnsKeyReportsIntoIntents(_ testCase: InterpreterCase) {
        var interpreter = KeyCommandInterpreter(keyMap: .default)
        let intents = testCase.events.flatMap { interpreter.interpret($0) }
        #expect(intents == testCase.intents)
    }

    @Test func droppedEventsAbandonAHalfTypedNumber() {
        var interpreter = KeyCommandInterpreter(keyMap: .default)
        _ = tap("KEY_KP1").flatMap { interpreter.interpret($0) }
        #expect(interpreter.pendingEntry == "1")
        interpreter.eventsDropped()
        #expect(interpreter.pendingEntry == nil)
        #expect(tap("KEY_KP4", at: 300).flatMap { interpreter.interpret($0) } == [])
        #expect(tap("KEY_KPENTER", at: 500).flatMap { interpreter.interpret($0) } == [.playItem(index: 3)])
    }

    @Test func keyStatesFollowPressesReleasesAndResync() {
        var interpreter = KeyCommandInterpreter(keyMap: .default)
        _ = interpreter.interpret(key("KEY_LEFT"))
        #expect(interpreter.isPressed(code("KEY_LEFT")))
        _ = interpreter.interpret(key("KEY_LEFT", .release, resync: true))
        #expect(!interpreter.isPressed(code("KEY_LEFT")))
    }

    @Test func overridesChangeWhatKeysDo() {
        var interpreter = KeyCommandInterpreter(keyMap: KeyMap.default.merging([KeyName("KEY_KP5")!: .togglePlayPause]))
        #expect(tap("KEY_KP5").flatMap { interpreter.interpret($0) } == [.command(.togglePlayPause)])
    }
}
