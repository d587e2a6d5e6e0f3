import Testing
import MarqueeCore

@Suite struct CommandAndKeyMapTests {
    @Test func commandVocabularyHasDesignNames() {
        let names = Set(Command.allCases.map(\.rawValue))
        for name in ["play", "pause", "togglePlayPause", "stop", "next", "previous", "skipForward", "skipBackward",
                     "stepForward", "stepBackward", "cycleRepeatMode", "cycleScalingMode", "pauseAfterCurrentItem",
                     "volumeUp", "volumeDown", "toggleMute", "playEnteredItem"] {
            #expect(names.contains(name), "\(name)")
        }
        #expect((0...9).allSatisfy { names.contains("digit\($0)") })
        #expect(Command(rawValue: "digit7")?.digit == 7)
        #expect(Command.play.digit == nil)
    }

    @Test(arguments: Command.allCases)
    func autorepeatActsOnlyOnSeekStepAndVolume(_ command: Command) {
        let ramps: Set<Command> = [.skipForward, .skipBackward, .stepForward, .stepBackward, .volumeUp, .volumeDown]
        #expect(command.actsOnAutorepeat == ramps.contains(command))
    }

    @Test(arguments: [
        ("KEY_KP5", "KEY_KP5", UInt16(76)),
        ("kp5", "KEY_KP5", 76),
        ("KEY_PLAYPAUSE", "KEY_PLAYPAUSE", 164),
        ("nextsong", "KEY_NEXTSONG", 163),
        ("BTN_LEFT", "BTN_LEFT", 0x110),
        ("KEY_ZOOM", "KEY_ZOOM", 0x174),
    ])
    func keyNamesResolveToKernelCodes(text: String, name: String, code: UInt16) throws {
        let key = try #require(KeyName(text))
        #expect(key.name == name)
        #expect(key.code == code)
    }

    @Test(arguments: ["KEY_FOO", "", "KP55", "KEY_"])
    func unknownKeyNamesAreRejected(_ text: String) {
        #expect(KeyName(text) == nil)
    }

    @Test func aliasesShareACode() {
        #expect(KeyName.names(forCode: KeyName("KEY_ZOOM")!.code) == ["KEY_FULL_SCREEN", "KEY_ZOOM"])
    }

    @Test(arguments: [
        ("KEY_KP0", Command.digit0), ("KEY_KP9", .digit9), ("KEY_KPENTER", .playEnteredItem),
        ("KEY_KPPLUS", .volumeUp), ("KEY_KPMINUS", .volumeDown), ("KEY_KPASTERISK", .cycleRepeatMode),
        ("KEY_KPSLASH", .cycleScalingMode), ("KEY_KPDOT", .togglePlayPause),
        ("KEY_PLAYPAUSE", .togglePlayPause), ("KEY_PLAY", .play), ("KEY_PAUSE", .pause),
        ("KEY_STOPCD", .stop), ("KEY_STOP", .stop), ("KEY_NEXTSONG", .next), ("KEY_PREVIOUSSONG", .previous),
        ("KEY_FASTFORWARD", .skipForward), ("KEY_REWIND", .skipBackward),
        ("KEY_VOLUMEUP", .volumeUp), ("KEY_VOLUMEDOWN", .volumeDown), ("KEY_MUTE", .toggleMute),
        ("KEY_LEFT", .skipBackward), ("KEY_RIGHT", .skipForward), ("KEY_UP", .volumeUp), ("KEY_DOWN", .volumeDown),
        ("KEY_SPACE", .togglePlayPause), ("KEY_ENTER", .togglePlayPause), ("KEY_ESC", .stop),
    ])
    func defaultMapCoversKeypadMediaKeysAndKeyboard(key: String, command: Command) {
        #expect(KeyMap.default.command(for: KeyName(key)!) == command)
    }

    @Test func overridesReplaceKeyByKeyAndKeepTheRest() {
        let map = KeyMap.default.merging([KeyName("KEY_KP5")!: .togglePlayPause, KeyName("KEY_F1")!: .next])
        #expect(map.command(for: KeyName("KEY_KP5")!) == .togglePlayPause)
        #expect(map.command(for: KeyName("KEY_F1")!) == .next)
        #expect(map.command(for: KeyName("KEY_KP4")!) == .digit4)
        #expect(map.command(for: KeyName("KEY_MUTE")!) == .toggleMute)
        #expect(KeyMap.default.command(for: KeyName("KEY_F1")!) == nil)
        #expect(map.boundCodes.count == KeyMap.default.boundCodes.count + 1)
    }

    @Test func mergingNilUnbindsTheKeyAndItsAliases() {
        let map = KeyMap.default.merging([KeyName("KEY_ESC")!: nil, KeyName("KEY_STOPCD")!: nil, KeyName("KEY_F1")!: nil])
        #expect(map.command(for: KeyName("KEY_ESC")!) == nil)
        #expect(map.command(for: KeyName("KEY_STOPCD")!) == nil)
        #expect(map.command(for: KeyName("KEY_STOP")!) == .stop)
        #expect(!map.boundCodes.contains(KeyName("KEY_ESC")!.code))
        // Unbinding a key the map never bound changes nothing.
        #expect(map.boundCodes.count == KeyMap.default.boundCodes.count - 2)
        // Keys are matched by code: an alias unbinds the same key.
        let aliased = KeyMap.default.merging([KeyName("kp5")!: nil])
        #expect(aliased.command(for: KeyName("KEY_KP5")!) == nil)
    }

    @Test func theEmptyMapBindsNothingUntilKeysAreLaidOverIt() {
        #expect(KeyMap.empty.boundCodes.isEmpty)
        #expect(KeyMap.empty.command(for: KeyName("KEY_ESC")!) == nil)
        let kiosk = KeyMap.empty.merging([KeyName("KEY_KP1")!: .digit1, KeyName("KEY_KPENTER")!: .playEnteredItem,
                                          KeyName("KEY_ESC")!: nil])
        #expect(kiosk.boundCodes == [KeyName("KEY_KP1")!.code, KeyName("KEY_KPENTER")!.code])
    }

    @Test func quitIsNeverBoundByDefaultNorBindableAtAll() {
        // Quitting is a control action (the socket's quit, SIGTERM), not a key command.
        #expect(Command(rawValue: "quit") == nil)
        #expect(!Command.allCases.map(\.rawValue).contains { $0.lowercased().contains("quit") })
        #expect(KeyMap.default.commandsByCode.values.allSatisfy { ControlAction.command($0) != .quit })
    }

    @Test func cyclesFollowTheDesignOrder() {
        #expect([RepeatMode.off, .all, .one, .shuffle].map(\.cycled) == [.all, .one, .shuffle, .off])
        #expect([ScalingMode.none, .aspectFit, .aspectFill, .fill].map(\.cycled) == [.aspectFit, .aspectFill, .fill, .none])
        #expect(ScalingMode.default == .aspectFit)
    }
}
