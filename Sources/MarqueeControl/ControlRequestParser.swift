import Foundation
import MarqueeCore

/// Why a request line was refused: one line for the reply's `error`, with the id when the line
/// had one, so the client can tell which request failed.
public struct ControlRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    public var id: ControlRequestID?
    public var message: String
    public var description: String { message }
}

/// Reads request lines. Everything a client can get wrong (not JSON, not an object, no command,
/// an unknown one, a missing or mistyped field, a value out of range) is an error naming the field
/// and what it wants; nothing here can crash on any input.
public enum ControlRequestParser {
    /// The commands that take no values, by name: the key path's commands, reload and quit.
    static let plainCommands: [String: ControlAction] = {
        var table: [String: ControlAction] = ["reload": .reload, "quit": .quit]
        // Digits are numeric entry on a keypad; skips and steps take values here, as valueCommands.
        for command in Command.allCases where command.digit == nil && command != .playEnteredItem
            && !valueCommands.contains(command.rawValue) {
            table[command.rawValue] = .command(command)
        }
        return table
    }()

    static let valueCommands = ["playItem", "skipForward", "skipBackward", "stepForward", "stepBackward", "setRepeat",
                                "setScaling", "setVolume", "mute", "rate", "actionAtItemEnd", "seek", "status", "subscribe",
                                "unsubscribe", "observe", "removeObserver", "load", "screenshot"]

    /// Every command name, sorted: what an unknown command's error lists.
    public static let commandNames: [String] = (Array(plainCommands.keys) + valueCommands).sorted()

    /// Longest skip a request may ask for: a day.
    static let maximumSkip = MediaTime(seconds: 86_400)
    static let maximumStepCount = 1000

    public static func parse(_ line: String) -> Result<ControlRequest, ControlRequestError> {
        guard let data = line.data(using: .utf8),
              let parsed = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return .failure(ControlRequestError(id: nil, message: "not JSON: send one JSON object per line, e.g. {\"command\":\"status\"}"))
        }
        guard let object = parsed as? [String: Any] else {
            return .failure(ControlRequestError(id: nil, message: "not a JSON object: send one object per line, e.g. {\"command\":\"status\"}"))
        }
        let id: ControlRequestID?
        do {
            id = try requestID(object["id"])
        } catch {
            return .failure(ControlRequestError(id: nil, message: error.message))
        }
        let fields = RequestFields(object: object)
        do {
            return .success(ControlRequest(id: id, command: try command(from: fields)))
        } catch let error as FieldError {
            return .failure(ControlRequestError(id: id, message: error.message))
        } catch {
            return .failure(ControlRequestError(id: id, message: "\(error)"))
        }
    }

    private static func requestID(_ value: Any?) throws(FieldError) -> ControlRequestID? {
        guard let value, !(value is NSNull) else { return nil }
        if let text = value as? String { return .string(text) }
        if let number = value as? NSNumber, !number.isBoolean {
            let double = number.doubleValue
            if double.rounded() == double, abs(double) < 1e15 { return .integer(Int(double)) }
            return .number(double)
        }
        throw FieldError("'id' must be a number or a string")
    }

    private static func command(from fields: RequestFields) throws -> ControlCommand {
        guard let name = fields.object["command"] else { throw FieldError("no 'command': e.g. {\"command\":\"status\"}") }
        guard let name = name as? String else { throw FieldError("'command' must be a string, e.g. \"next\"") }
        if let action = plainCommands[name] {
            try fields.allowOnly([], for: name)
            return .action(action)
        }
        switch name {
        case "playItem":
            try fields.allowOnly(["index"], for: name)
            let index = try fields.integer("index", in: 0...Int(Int32.max), hint: "the item's 0-based index, as in itemStarted")
            return .action(.playItem(index: index))
        case "skipForward", "skipBackward":
            try fields.allowOnly(["seconds"], for: name)
            let seconds = try fields.optionalTime("seconds") ?? Command.skipInterval
            guard seconds > .zero, seconds <= maximumSkip else { throw FieldError("'seconds' must be above 0 and at most a day") }
            return .action(.skip(by: name == "skipForward" ? seconds : -seconds))
        case "stepForward", "stepBackward":
            try fields.allowOnly(["count"], for: name)
            let count = try fields.optionalInteger("count", in: 1...maximumStepCount, hint: "frames") ?? 1
            return .action(.step(by: name == "stepForward" ? count : -count))
        case "setRepeat":
            try fields.allowOnly(["mode"], for: name)
            return .action(.setRepeat(try fields.choice("mode", of: RepeatMode.self)))
        case "setScaling":
            try fields.allowOnly(["mode"], for: name)
            return .action(.setScaling(try fields.choice("mode", of: ScalingMode.self)))
        case "setVolume":
            try fields.allowOnly(["volume"], for: name)
            return .action(.setVolume(try fields.number("volume", in: 0...1, hint: "from 0 to 1")))
        case "rate":
            try fields.allowOnly(["rate"], for: name)
            return .action(.setRate(try fields.number("rate", in: RateClock.rates, hint: "from 0.25 to 4")))
        case "mute":
            try fields.allowOnly(["muted"], for: name)
            return .action(.setMuted(try fields.optionalBool("muted") ?? true))
        case "actionAtItemEnd":
            try fields.allowOnly(["action"], for: name)
            return .action(.setActionAtItemEnd(try fields.choice("action", of: ActionAtItemEnd.self)))
        case "seek":
            try fields.allowOnly(["to", "toleranceBefore", "toleranceAfter"], for: name)
            guard let to = try fields.optionalTime("to") else { throw FieldError("seek needs 'to': seconds or [hh:]mm:ss[.fff]") }
            return .seek(to: to, toleranceBefore: try fields.optionalTime("toleranceBefore") ?? .zero,
                         toleranceAfter: try fields.optionalTime("toleranceAfter") ?? .zero)
        case "status":
            try fields.allowOnly([], for: name)
            return .status
        case "subscribe":
            try fields.allowOnly(["events"], for: name)
            return .subscribe(events: try fields.optionalEventNames("events"))
        case "unsubscribe":
            try fields.allowOnly([], for: name)
            return .unsubscribe
        case "observe":
            try fields.allowOnly(["every", "at", "item"], for: name)
            return try observer(from: fields)
        case "removeObserver":
            try fields.allowOnly(["observer"], for: name)
            return .removeObserver(try fields.integer("observer", in: 1...Int.max, hint: "the number observe replied with"))
        case "load":
            try fields.allowOnly(["path", "playlist", "mode"], for: name)
            return .load(try load(from: fields))
        case "screenshot":
            try fields.allowOnly(["path"], for: name)
            let path = try fields.optionalString("path")
            if let path, path.isEmpty { throw FieldError("'path' must not be empty; leave it out to get the PNG as base64") }
            return .screenshot(path: path)
        default:
            throw FieldError("unknown command '\(name)'; commands: \(commandNames.joined(separator: ", "))")
        }
    }

    private static func observer(from fields: RequestFields) throws -> ControlCommand {
        let every = try fields.optionalTime("every")
        let times = try fields.optionalTimes("at")
        switch (every, times) {
        case (let every?, nil):
            if fields.object["item"] != nil { throw FieldError("'item' goes with 'at', not 'every'") }
            guard every >= MediaTime(1, per: 100) else { throw FieldError("'every' must be at least 0.01 seconds") }
            return .observeEvery(every)
        case (nil, let times?):
            guard !times.isEmpty, times.count <= 10_000 else { throw FieldError("'at' must list 1 to 10000 times") }
            return .observeBoundary(times: times, item: try fields.optionalInteger("item", in: 0...Int(Int32.max), hint: "a 0-based item index"))
        default:
            throw FieldError("observe needs either 'every' (seconds) or 'at' (a list of times, with an optional 'item')")
        }
    }

    private static func load(from fields: RequestFields) throws -> ControlLoad {
        let mode = try fields.object["mode"] == nil ? .replace : fields.choice("mode", of: ControlLoad.Mode.self)
        switch (fields.object["path"], fields.object["playlist"]) {
        case (let path?, nil):
            guard let path = path as? String, !path.isEmpty else { throw FieldError("'path' must be a config file's path") }
            return ControlLoad(source: .path(path), mode: mode)
        case (nil, let playlist?):
            guard let playlist = playlist as? [String: Any],
                  let data = try? JSONSerialization.data(withJSONObject: ["playlist": playlist], options: [.prettyPrinted, .sortedKeys]) else {
                throw FieldError("'playlist' must be an object like a config's playlist: {\"items\":[{\"url\":\"a.mp4\"}]}")
            }
            return ControlLoad(source: .playlist(json: String(decoding: data, as: UTF8.self)), mode: mode)
        default:
            throw FieldError("load needs either 'path' (a config file) or 'playlist' (an object like a config's playlist)")
        }
    }
}

struct FieldError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

extension NSNumber {
    /// JSONSerialization gives booleans as NSNumber too; they are not numbers here.
    /// (Foundation on Linux types them as C `char`, which no JSON number is given as.)
    var isBoolean: Bool { String(cString: objCType) == "c" }
}
