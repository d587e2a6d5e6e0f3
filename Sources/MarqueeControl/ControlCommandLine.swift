import Foundation
import MarqueeCore

/// `marquee ctl` words as a request, by the vocabulary's table: `next`, `seek 1:23`,
/// `skipForward 10`, `setRepeat one`, `load other.yaml`, `observe every 0.5`. Values are checked
/// by the player's parser when it reads the request, so the two never disagree; here they are only
/// put in their fields (numbers as numbers, on/off as true/false, a path made absolute).
public enum ControlCommandLine {
    public struct Usage: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// The request object for `words` (the command and its values), or what is wrong with them.
    /// `workingDirectory` makes a relative config path absolute: the player's own is elsewhere.
    public static func request(_ words: [String], workingDirectory: String, append: Bool = false,
                               wait: Bool = false) throws(Usage) -> [String: Any] {
        guard let name = words.first else { throw Usage(description: "give a command, e.g. status, next, seek 1:23") }
        // An unknown name goes to the player, whose answer lists the commands.
        guard let spec = ControlVocabulary.spec(named: name) else { return ["command": name] }
        let values = Array(words.dropFirst())
        if name == "observe" { return try observe(values, spec: spec) }
        let usage = Usage(description: "usage: marquee ctl \(spec.synopsis)")
        let taken = spec.words.compactMap(spec.field)
        let takesRest = taken.last.map { if case .eventNames = $0.kind { true } else { false } } ?? false
        let needed = taken.filter(\.isRequired).count
        guard values.count >= needed, takesRest || values.count <= taken.count else { throw usage }
        var request: [String: Any] = ["command": name]
        for (field, word) in zip(taken, values) {
            switch field.kind {
            case .integer, .number:
                request[field.name] = try number(word, for: name)
            case .flag:
                guard let flag = ["on": true, "true": true, "off": false, "false": false][word] else { throw usage }
                request[field.name] = flag
            case .path:
                let url = URL(fileURLWithPath: word, relativeTo: URL(fileURLWithPath: workingDirectory, isDirectory: true))
                request[field.name] = url.standardizedFileURL.path
            case .eventNames, .times:
                request[field.name] = Array(values.dropFirst(spec.words.count - 1))
            case .time, .choice, .text, .object:
                request[field.name] = word
            }
        }
        if name == "load" {
            request["mode"] = append ? ControlLoad.Mode.append.rawValue : ControlLoad.Mode.replace.rawValue
            if wait { request["wait"] = true }
        }
        return request
    }

    /// `observe every SECONDS` or `observe at TIME...`: two shapes, so no plain list of words.
    private static func observe(_ values: [String], spec: ControlCommandSpec) throws(Usage) -> [String: Any] {
        let usage = Usage(description: "usage: marquee ctl \(spec.synopsis)")
        switch values.first {
        case "every" where values.count == 2:
            return ["command": spec.name, "every": values[1]]
        case "at" where values.count >= 2:
            return ["command": spec.name, "at": Array(values.dropFirst())]
        default:
            throw usage
        }
    }

    private static func number(_ text: String, for command: String) throws(Usage) -> Any {
        if let whole = Int(text) { return whole }
        if let value = Double(text), value.isFinite { return value }
        throw Usage(description: "\(command): '\(text)' is not a number")
    }

    /// `marquee ctl`'s help: every command as typed, with its line of help.
    public static var commandList: String {
        ControlVocabulary.all.map { "  \($0.synopsis)\n      \($0.help)" }.joined(separator: "\n")
    }
}
