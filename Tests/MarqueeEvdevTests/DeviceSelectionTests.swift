import MarqueeCore
import Testing
@testable import MarqueeEvdev

private func code(_ name: String) -> UInt16 { KeyName(name)!.code }

private let virtioKeyboard = InputDeviceInfo(path: "/dev/input/event1", name: "QEMU Virtio Keyboard", bus: 0x06,
                                             keyCodes: Set(["KEY_A", "KEY_SPACE", "KEY_NEXTSONG"].map(code)))
private let powerButton = InputDeviceInfo(path: "/dev/input/event0", name: "Power Button", bus: 0x19,
                                          keyCodes: [code("KEY_POWER")])
private let mouse = InputDeviceInfo(path: "/dev/input/event4", name: "QEMU USB Mouse", keyCodes: [0x110, 0x111])
private let numericKeypad = InputDeviceInfo(path: "/dev/input/event7", name: "Marquee Test Keypad",
                                            keyCodes: Set(["KEY_KP1", "KEY_KP2", "KEY_KPENTER"].map(code)))

@Suite struct DeviceSelectionTests {
    private let noLinks: (String) -> String? = { _ in nil }

    @Test func autoTakesEveryDeviceWithAMappedKeyAndLeavesTheRest() {
        let selection = InputDeviceSelection.auto(boundCodes: KeyMap.default.boundCodes)
        #expect(selection.accepts(virtioKeyboard, resolve: noLinks))
        #expect(selection.accepts(numericKeypad, resolve: noLinks))
        #expect(!selection.accepts(powerButton, resolve: noLinks))
        #expect(!selection.accepts(mouse, resolve: noLinks))
    }

    /// A kiosk's map binds only the keypad; a keyboard plugged in beside it has no bound key. Only
    /// under lockdown is it taken (and so grabbed): its Ctrl+Alt+Fn must not reach the console.
    @Test func lockdownAlsoTakesEveryKeyboardBoundOrNot() {
        let kiosk = InputDeviceSelection.auto(boundCodes: [code("KEY_KP5")])
        let visitorKeyboard = InputDeviceInfo(path: "/dev/input/event9", name: "Visitor Keyboard",
                                              keyCodes: Set(["KEY_LEFTCTRL", "KEY_LEFTALT", "KEY_F2"].map(code)))
        #expect(!kiosk.accepts(visitorKeyboard, lockdown: false, resolve: noLinks))
        #expect(kiosk.accepts(visitorKeyboard, lockdown: true, resolve: noLinks))
        #expect(kiosk.accepts(virtioKeyboard, lockdown: true, resolve: noLinks))
        #expect(!kiosk.accepts(powerButton, lockdown: true, resolve: noLinks))
        #expect(!kiosk.accepts(mouse, lockdown: true, resolve: noLinks))
        #expect(!kiosk.accepts(numericKeypad, lockdown: false, resolve: noLinks))
        #expect(kiosk.accepts(numericKeypad, lockdown: true, resolve: noLinks))
        #expect(InputDeviceSelection.named(["/dev/input/event7"]).accepts(visitorKeyboard, lockdown: true, resolve: noLinks))
    }

    @Test func autoFollowsTheActiveMapWithItsOverrides() {
        // A config that binds KEY_POWER makes the power button a control too.
        let map = KeyMap.default.merging([KeyName("KEY_POWER")!: .stop])
        #expect(InputDeviceSelection.auto(boundCodes: map.boundCodes).accepts(powerButton, resolve: noLinks))
    }

    @Test func namedEntriesMatchAPathAnExactNameOrASymlinkToTheNode() {
        let links = ["/dev/input/by-id/usb-Keypad-event-kbd": "/dev/input/event7"]
        let resolve: (String) -> String? = { links[$0] }
        #expect(InputDeviceSelection.named(["/dev/input/event1"]).accepts(virtioKeyboard, resolve: resolve))
        #expect(InputDeviceSelection.named(["QEMU Virtio Keyboard"]).accepts(virtioKeyboard, resolve: resolve))
        #expect(!InputDeviceSelection.named(["QEMU Virtio"]).accepts(virtioKeyboard, resolve: resolve))
        #expect(!InputDeviceSelection.named(["qemu virtio keyboard"]).accepts(virtioKeyboard, resolve: resolve))
        #expect(InputDeviceSelection.named(["/dev/input/by-id/usb-Keypad-event-kbd"]).accepts(numericKeypad, resolve: resolve))
        // Named devices are taken even without a mapped key: the operator asked for them.
        #expect(InputDeviceSelection.named(["Power Button"]).accepts(powerButton, resolve: resolve))
    }

    @Test func entriesNoDeviceAnswersToAreReportedOnce() {
        let selection = InputDeviceSelection.named(["/dev/input/event9", "Marquee Test Keypad", "IR Remote"])
        #expect(selection.unmatchedEntries(among: [virtioKeyboard, numericKeypad], resolve: noLinks) == ["/dev/input/event9", "IR Remote"])
        #expect(InputDeviceSelection.auto(boundCodes: []).unmatchedEntries(among: [], resolve: noLinks).isEmpty)
    }

    @Test func probeNamesTheMappedKeysInCodeOrder() {
        #expect(virtioKeyboard.mappedKeyNames(in: .default) == ["KEY_SPACE", "KEY_NEXTSONG"])
        #expect(powerButton.mappedKeyNames(in: .default).isEmpty)
        #expect(InputDeviceInfo.keyName(forCode: code("KEY_PLAYPAUSE")) == "KEY_PLAYPAUSE")
        #expect(virtioKeyboard.busName == "virtual" && mouse.busName == "0x0000")
    }
}

@Suite struct EventNodeNameTests {
    @Test func onlyEventNodesCountInKernelOrder() {
        #expect(EventNodeName.number(of: "event12") == 12)
        for name in ["event", "eventx", "mice", "js0", "by-id", "event1a", "event-1", "event١"] {
            #expect(EventNodeName.number(of: name) == nil, "\(name)")
        }
        #expect(EventNodeName.sortedEventNodes(["event10", "mice", "event2", "by-path", "event0"]) == ["event0", "event2", "event10"])
    }
}
