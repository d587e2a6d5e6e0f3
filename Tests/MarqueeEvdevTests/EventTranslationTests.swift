import MarqueeCore
import Testing
@testable import MarqueeEvdev

private func code(_ name: String) -> UInt16 { KeyName(name)!.code }
private let keyType: UInt16 = 1
private let t = MediaTime(seconds: 5)

/// input_event → KeyEvent, and whole event sequences from a device through the interpreter, as the
/// input thread runs them.
@Suite struct EventTranslationTests {
    @Test func keyValuesAreReleasePressAndAutorepeat() {
        #expect(EvdevReport.translate(type: keyType, code: 57, value: 1, time: t, isResync: false)
            == .key(KeyEvent(code: 57, action: .press, time: t)))
        #expect(EvdevReport.translate(type: keyType, code: 57, value: 0, time: t, isResync: false)
            == .key(KeyEvent(code: 57, action: .release, time: t)))
        #expect(EvdevReport.translate(type: keyType, code: 57, value: 2, time: t, isResync: false)
            == .key(KeyEvent(code: 57, action: .autorepeat, time: t)))
        #expect(EvdevReport.translate(type: keyType, code: 57, value: 1, time: t, isResync: true)
            == .key(KeyEvent(code: 57, action: .press, time: t, isResync: true)))
    }

    @Test func synDroppedIsReportedAndOtherEventsAreNot() {
        #expect(EvdevReport.translate(type: 0, code: 3, value: 0, time: t, isResync: false) == .eventsDropped)
        #expect(EvdevReport.translate(type: 0, code: 0, value: 0, time: t, isResync: false) == nil) // SYN_REPORT
        #expect(EvdevReport.translate(type: 4, code: 4, value: 0x7002c, time: t, isResync: false) == nil) // EV_MSC scan
        #expect(EvdevReport.translate(type: 2, code: 0, value: 5, time: t, isResync: false) == nil) // EV_REL
        #expect(EvdevReport.translate(type: keyType, code: 57, value: 7, time: t, isResync: false) == nil)
    }

    @Test func timestampsKeepMicroseconds() {
        #expect(EvdevReport.time(seconds: 12, microseconds: 345_678) == MediaTime(12_345_678, per: 1_000_000))
    }

    /// The raw stream of a keypad's "KP3 KPENTER" as the kernel sends it (with EV_MSC scan codes
    /// and SYN_REPORTs between), run through translation and the interpreter.
    @Test func aKeypadsRawStreamPlaysItemThree() {
        var interpreter = KeyCommandInterpreter(keyMap: .default)
        let raw: [(UInt16, UInt16, Int32, Int)] = [
            (4, 4, 0x70060, 0), (1, code("KEY_KP3"), 1, 0), (0, 0, 0, 0),
            (4, 4, 0x70060, 100), (1, code("KEY_KP3"), 0, 100), (0, 0, 0, 100),
            (1, code("KEY_KPENTER"), 1, 600), (0, 0, 0, 600), (1, code("KEY_KPENTER"), 0, 700), (0, 0, 0, 700),
        ]
        let intents = run(raw, through: &interpreter)
        #expect(intents == [.playItem(index: 2)])
    }

    /// SYN_DROPPED in the middle of typing: the resync restates KP4 as down (it was pressed during
    /// the lost events) without acting on it, and the half-typed number is abandoned.
    @Test func aResyncAfterSynDroppedActsOnNothingAndAbandonsTheNumber() {
        var interpreter = KeyCommandInterpreter(keyMap: .default)
        var intents = run([(1, code("KEY_KP2"), 1, 0), (1, code("KEY_KP2"), 0, 50)], through: &interpreter)
        #expect(interpreter.pendingEntry == "2")
        intents += run([(0, 3, 0, 100)], through: &interpreter)
        intents += run([(1, code("KEY_KP4"), 1, 120)], through: &interpreter, resync: true)
        #expect(interpreter.isPressed(code("KEY_KP4")))
        intents += run([(1, code("KEY_KP4"), 0, 200), (1, code("KEY_KPENTER"), 1, 300)], through: &interpreter)
        #expect(intents.isEmpty)
        #expect(interpreter.pendingEntry == nil)
    }

    @Test func heldSeekKeysRepeatAndHeldTogglesDoNot() {
        var interpreter = KeyCommandInterpreter(keyMap: .default)
        let intents = run([(1, code("KEY_RIGHT"), 1, 0), (1, code("KEY_RIGHT"), 2, 250), (1, code("KEY_RIGHT"), 2, 283),
                           (1, code("KEY_RIGHT"), 0, 300),
                           (1, code("KEY_SPACE"), 1, 400), (1, code("KEY_SPACE"), 2, 650), (1, code("KEY_SPACE"), 0, 700)],
                          through: &interpreter)
        #expect(intents == [.command(.skipForward), .command(.skipForward), .command(.skipForward), .command(.togglePlayPause)])
    }

    /// (type, code, value, milliseconds) → what the input thread would deliver.
    private func run(_ raw: [(UInt16, UInt16, Int32, Int)], through interpreter: inout KeyCommandInterpreter,
                     resync: Bool = false) -> [KeyIntent] {
        var intents: [KeyIntent] = []
        for (type, code, value, milliseconds) in raw {
            let time = EvdevReport.time(seconds: milliseconds / 1000, microseconds: (milliseconds % 1000) * 1000)
            switch EvdevReport.translate(type: type, code: code, value: value, time: time, isResync: resync) {
            case .key(let event): intents += interpreter.interpret(event)
            case .eventsDropped: interpreter.eventsDropped()
            case nil: break
            }
        }
        return intents
    }
}

@Suite struct DirectoryChangeTests {
    /// One inotify record: wd, mask, cookie, len, then the name NUL-padded to len.
    private func record(mask: UInt32, name: String, length: Int = 16) -> [UInt8] {
        var bytes: [UInt8] = []
        for word in [UInt32(1), mask, 0, UInt32(name.isEmpty ? 0 : length)] {
            withUnsafeBytes(of: word) { bytes += $0 }
        }
        if !name.isEmpty { bytes += Array(name.utf8) + Array(repeating: 0, count: length - name.utf8.count) }
        return bytes
    }

    @Test func recordsBecomeChanges() {
        let bytes = record(mask: 0x100, name: "event5") + record(mask: 0x4, name: "event5")
            + record(mask: 0x200, name: "event5") + record(mask: 0x80, name: "event6", length: 32)
            + record(mask: 0x100 | 0x4000_0000, name: "by-id") + record(mask: 0x4000, name: "")
            + record(mask: 0x8000, name: "")
        #expect(DirectoryChange.parse(bytes) == [
            DirectoryChange(kind: .appeared, name: "event5"),
            DirectoryChange(kind: .attributesChanged, name: "event5"),
            DirectoryChange(kind: .disappeared, name: "event5"),
            DirectoryChange(kind: .appeared, name: "event6"),
            DirectoryChange(kind: .appeared, name: "by-id"),
            DirectoryChange(kind: .overflowed, name: ""),
            DirectoryChange(kind: .watchEnded, name: ""),
        ])
    }

    @Test func aTruncatedTailIsIgnored() {
        let bytes = record(mask: 0x100, name: "event5") + Array(record(mask: 0x100, name: "event6").prefix(20))
        #expect(DirectoryChange.parse(bytes) == [DirectoryChange(kind: .appeared, name: "event5")])
    }
}
