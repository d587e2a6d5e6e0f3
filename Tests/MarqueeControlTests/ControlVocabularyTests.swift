import Foundation
import MarqueeCore
import Testing
@testable import MarqueeControl

/// The vocabulary is one table: the README, the parser, `marquee ctl` and the key path all read it.
@Suite struct ControlVocabularyTests {
    /// The Control socket section's request table: `(names in the first column, the fields column)`.
    static func readmeRows() throws -> [(names: [String], fields: String)] {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let header = lines.firstIndex(where: { $0.hasPrefix("| request | fields |") }) else {
            Issue.record("README has no control request table")
            return []
        }
        var rows: [(names: [String], fields: String)] = []
        for line in lines[(header + 2)...] {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3 else { continue }
            // The first column names each command in backticks, with notes in parentheses between.
            let names = backticked(cells[1].replacing(/\([^)]*\)/, with: ""))
            rows.append((names, cells[2]))
        }
        return rows
    }

    static func backticked(_ text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    @Test func theReadmesCommandTableListsExactlyTheVocabulary() throws {
        let rows = try Self.readmeRows()
        let documented = rows.flatMap(\.names)
        #expect(Set(documented) == Set(ControlVocabulary.names),
                "README lists \(Set(documented).subtracting(ControlVocabulary.names).sorted()) not in the table; leaves out \(Set(ControlVocabulary.names).subtracting(documented).sorted())")
        #expect(documented.count == Set(documented).count, "a command is listed twice")
        for row in rows {
            let mentioned = Set(Self.backticked(row.fields))
            for name in row.names {
                guard let spec = ControlVocabulary.spec(named: name) else { continue }
                if spec.fields.isEmpty {
                    #expect(row.fields == "none", "README gives \(name) fields '\(row.fields)'; it takes none")
                }
                for field in spec.fields {
                    #expect(mentioned.contains(field.name), "README's row for \(name) does not name its field `\(field.name)`")
                }
            }
        }
    }

    @Test func everyNameIsDeclaredOnceAndEveryKeyCommandIsThere() {
        #expect(ControlVocabulary.names.count == Set(ControlVocabulary.names).count)
        // Digits and the numeric entry they end are a keypad's, not a client's: a client says playItem.
        for command in Command.allCases where command.digit == nil && command != .playEnteredItem {
            #expect(ControlVocabulary.spec(named: command.rawValue) != nil, "\(command) is not in the vocabulary")
        }
    }

    /// Every plain key command builds the same action a key sends; the ones that take values build
    /// their valued form with the defaults.
    @Test func aCommandWithoutValuesBuildsWhatItsKeySends() throws {
        for command in Command.allCases where command.digit == nil && command != .playEnteredItem {
            let spec = try #require(ControlVocabulary.spec(named: command.rawValue))
            let built = try spec.command(ControlArguments(command: spec.name, values: [:]))
            switch command {
            case .skipForward: #expect(built == .action(.skip(by: Command.skipInterval)))
            case .skipBackward: #expect(built == .action(.skip(by: -Command.skipInterval)))
            case .stepForward: #expect(built == .action(.step(by: 1)))
            case .stepBackward: #expect(built == .action(.step(by: -1)))
            default: #expect(built == .action(.command(command)))
            }
        }
    }

    /// What a held key does is what the table says, and the table says it for seeking and volume only.
    @Test func aHeldKeyRepeatsWhatTheTableSaysRepeats() {
        let repeating = Set(Command.allCases.filter(\.actsOnAutorepeat))
        #expect(repeating == [.skipForward, .skipBackward, .stepForward, .stepBackward, .volumeUp, .volumeDown])
        for spec in ControlVocabulary.all {
            if let command = Command(rawValue: spec.name) { #expect(command.actsOnAutorepeat == spec.repeatsWhenHeld) }
        }
    }

    /// The events log and refusals name a command as the table does.
    @Test func theNamesInEventsAndRefusalsAreTheTablesNames() throws {
        for spec in ControlVocabulary.all {
            var values: [String: ControlValue] = [:]
            for field in spec.fields where field.isRequired {
                values[field.name] = switch field.kind {
                case .integer(let range, _): .integer(range.lowerBound)
                case .number(let range, _): .number(range.lowerBound)
                case .time: .time(.zero)
                case .choice(let words): .text(words[0])
                default: .text("x")
                }
            }
            if spec.name == "observe" { values["every"] = .time(MediaTime(seconds: 1)) }
            if spec.name == "load" { values["path"] = .text("/a.yaml") }
            let command = try spec.command(ControlArguments(command: spec.name, values: values))
            #expect(command.name == spec.name || command.name == "screenshot to a file", "\(spec.name) builds a command named \(command.name)")
        }
    }

    /// `marquee ctl --help` lists every command as typed, and a wrong count of words gets the
    /// table's usage line.
    @Test func ctlsHelpAndUsageComeFromTheTable() {
        let help = ControlCommandLine.commandList
        for spec in ControlVocabulary.all { #expect(help.contains("  \(spec.synopsis)\n"), "\(spec.name) missing from ctl's help") }
        #expect(throws: ControlCommandLine.Usage.self) { try ControlCommandLine.request(["setVolume"], workingDirectory: "/") }
        do {
            _ = try ControlCommandLine.request(["skipForward", "1", "2"], workingDirectory: "/")
            Issue.record("two seconds were taken")
        } catch {
            #expect(error.description == "usage: marquee ctl skipForward [SECONDS]")
        }
        let mute = try? ControlCommandLine.request(["mute", "off"], workingDirectory: "/")
        #expect(mute?["muted"] as? Bool == false)
        let watch = try? ControlCommandLine.request(["subscribe", "itemStarted", "itemEnded"], workingDirectory: "/")
        #expect(watch?["events"] as? [String] == ["itemStarted", "itemEnded"])
    }
}
