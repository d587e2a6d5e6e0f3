import Foundation
import MarqueeConfig
import MarqueeCore
import Testing

/// `input.visitorKeys`: the commands keys may issue at all; keys bound to others do nothing.
@Suite struct VisitorKeysConfigTests {
    static func load(_ yaml: String) throws -> (InputConfiguration?, [String]) {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("config.yaml", "playlist:\n  items: [a.mp4]\ninput:\n" + yaml)
        let result = ConfigurationLoader.load(path: path, checkingMediaFiles: false)
        return (result.configuration?.input, result.diagnostics.map(\.description))
    }

    @Test func byDefaultEveryBoundKeyWorks() throws {
        let (input, diagnostics) = try Self.load("  grab: true\n")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(input?.visitorCommands == nil)
        #expect(input?.keyMap.command(for: KeyName("KEY_ESC")!) == .stop)
        let (all, _) = try Self.load("  visitorKeys: all\n")
        #expect(all?.visitorCommands == nil)
    }

    @Test func aListKeepsOnlyItsCommandsOnTheKeys() throws {
        let (input, diagnostics) = try Self.load("  visitorKeys: [next, previous, volumeUp, volumeDown, numericEntry]\n")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let map = try #require(input?.keyMap)
        #expect(map.command(for: KeyName("KEY_PAGEDOWN")!) == .next)
        #expect(map.command(for: KeyName("KEY_KP3")!) == .digit3 && map.command(for: KeyName("KEY_KPENTER")!) == .playEnteredItem)
        for key in ["KEY_ESC", "KEY_SPACE", "KEY_MUTE", "KEY_KPASTERISK", "KEY_KPSLASH", "KEY_DOT"] {
            #expect(map.command(for: KeyName(key)!) == nil, "\(key)")
        }
        #expect(Set(map.commandsByCode.values) == Set([.next, .previous, .volumeUp, .volumeDown]).union(InputConfiguration.numericEntryCommands))
    }

    @Test func aKeyBoundToACommandNotListedIsAWarning() throws {
        let (input, diagnostics) = try Self.load("  keys:\n    KEY_F1: pause\n  visitorKeys: [next]\n")
        #expect(diagnostics.contains { $0.contains("warning: KEY_F1 is bound to pause, which input.visitorKeys does not list; the key does nothing") }, "\(diagnostics)")
        #expect(input?.keyMap.command(for: KeyName("KEY_F1")!) == nil)
    }

    @Test func mistakesAreErrorsAtTheirPlace() throws {
        let (_, diagnostics) = try Self.load("  visitorKeys: [next, jump]\n")
        #expect(diagnostics.contains { $0.contains("4:23: error: unknown command 'jump'") }, "\(diagnostics)")
        let (_, notAList) = try Self.load("  visitorKeys: next\n")
        #expect(notAList.contains { $0.contains("4:16: error: expected all or a list of commands keys may issue") }, "\(notAList)")
    }

    @Test func theListSurvivesTheJSONThatCheckPrints() throws {
        var input = InputConfiguration()
        input.visitorCommands = [.next, .volumeUp]
        let data = try JSONEncoder().encode(input)
        #expect(try JSONDecoder().decode(InputConfiguration.self, from: data).visitorCommands == [.next, .volumeUp])
    }
}
