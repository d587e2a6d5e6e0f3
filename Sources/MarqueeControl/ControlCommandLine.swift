import Foundation
import MarqueeCore

/// `marquee ctl` words as a request: `next`, `seek 1:23`, `skipForward 10`, `setRepeat one`,
/// `load other.yaml`, `observe every 0.5`. Values are checked by the player's parser when it
/// reads the request, so the two never disagree; here they are only put in their fields.
public enum ControlCommandLine {
    public struct Usage: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// The request object for `words` (the command and its values), or what is wrong with them.
    /// `workingDirectory` makes a relative config path absolute: the player's own is elsewhere.
    public static func request(_ words: [String], workingDirectory: String, append: Bool = false) throws(Usage) -> [String: Any] {
        guard let name = words.first else { throw Usage(description: "give a command, e.g. status, next, seek 1:23") }
        let values = Array(words.dropFirst())
        func only(_ count: ClosedRange<Int>, _ shape: String) throws(Usage) {
            guard count.contains(values.count) else { throw Usage(description: "usage: marquee ctl \(name)\(shape.isEmpty ? "" : " \(shape)")") }
        }
        switch name {
        case "playItem":
            try only(1...1, "INDEX (0-based, as status and events count)")
            return ["command": name, "index": try number(values[0], for: name)]
        case "skipForward", "skipBackward":
            try only(0...1, "[SECONDS]")
            return values.isEmpty ? ["command": name] : ["command": name, "seconds": values[0]]
        case "stepForward", "stepBackward":
            try only(0...1, "[COUNT]")
            return values.isEmpty ? ["command": name] : ["command": name, "count": try number(values[0], for: name)]
        case "setRepeat", "setScaling":
            try only(1...1, "MODE")
            return ["command": name, "mode": values[0]]
        case "setVolume":
            try only(1...1, "LEVEL (0 to 1)")
            return ["command": name, "volume": try number(values[0], for: name)]
        case "rate":
            try only(1...1, "RATE (0.25 to 4)")
            return ["command": name, "rate": try number(values[0], for: name)]
        case "mute":
            try only(0...1, "[on|off]")
            guard let word = values.first else { return ["command": name] }
            guard let muted = ["on": true, "true": true, "off": false, "false": false][word] else {
                throw Usage(description: "usage: marquee ctl mute [on|off]")
            }
            return ["command": name, "muted": muted]
        case "actionAtItemEnd":
            try only(1...1, "advance|pause|none")
            return ["command": name, "action": values[0]]
        case "seek":
            try only(1...1, "TIME (seconds or [hh:]mm:ss[.fff])")
            return ["command": name, "to": values[0], "toleranceBefore": 0, "toleranceAfter": 0]
        case "load":
            try only(1...1, "CONFIG [--append]")
            let path = URL(fileURLWithPath: values[0], relativeTo: URL(fileURLWithPath: workingDirectory, isDirectory: true))
            return ["command": name, "path": path.standardizedFileURL.path, "mode": append ? "append" : "replace"]
        case "observe":
            return try observe(values)
        case "removeObserver":
            try only(1...1, "OBSERVER")
            return ["command": name, "observer": try number(values[0], for: name)]
        default:
            // Commands without values, and the player's answer for any other name.
            try only(0...0, "")
            return ["command": name]
        }
    }

    private static func observe(_ values: [String]) throws(Usage) -> [String: Any] {
        let usage = Usage(description: "usage: marquee ctl observe every SECONDS | observe at TIME... [--item INDEX]")
        guard let kind = values.first else { throw usage }
        switch kind {
        case "every" where values.count == 2:
            return ["command": "observe", "every": values[1]]
        case "at" where values.count >= 2:
            return ["command": "observe", "at": Array(values.dropFirst())]
        default:
            throw usage
        }
    }

    private static func number(_ text: String, for command: String) throws(Usage) -> Any {
        if let whole = Int(text) { return whole }
        if let value = Double(text), value.isFinite { return value }
        throw Usage(description: "\(command): '\(text)' is not a number")
    }
}
