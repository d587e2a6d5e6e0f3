import Foundation
import MarqueeCore

/// A request object's fields, read against the vocabulary's field specs with errors that name the
/// field and what it takes.
struct RequestFields {
    let object: [String: Any]

    /// A misspelt field is an error rather than silently ignored (`"tolerance"` for
    /// `"toleranceBefore"` would otherwise seek with the default).
    /// `besides`: the fields of the request itself that any command may carry (`screen`), not
    /// listed among a command's own.
    func allowOnly(_ names: Set<String>, for command: String, besides requestFields: Set<String> = []) throws {
        for key in object.keys.sorted() where key != "id" && key != "command" && !names.contains(key) && !requestFields.contains(key) {
            let takes = names.isEmpty ? "takes no fields" : "takes \(names.sorted().map { "'\($0)'" }.joined(separator: ", "))"
            throw FieldError("\(command) \(takes), not '\(key)'")
        }
    }

    /// The field's value checked against its kind; nil when the request leaves it out (or sends
    /// null) and the command does not need it.
    func value(of field: ControlField, for command: String) throws -> ControlValue? {
        let name = field.name
        guard let value = object[name], !(value is NSNull) else {
            guard field.isRequired else { return nil }
            // A missing number reads as a wrong one: the range is what the client needs to hear.
            if case .number = field.kind { throw FieldError("'\(name)' must be \(field.takes)") }
            throw FieldError("\(command) needs '\(name)': \(field.takes)")
        }
        switch field.kind {
        case .integer(let range, _):
            guard let number = value as? NSNumber, !number.isBoolean, number.doubleValue.rounded() == number.doubleValue,
                  number.doubleValue >= Double(range.lowerBound), number.doubleValue <= Double(range.upperBound) else {
                throw FieldError("'\(name)' must be \(field.takes)")
            }
            return .integer(number.intValue)
        case .number(let range, _):
            guard let number = value as? NSNumber, !number.isBoolean, range.contains(number.doubleValue) else {
                throw FieldError("'\(name)' must be \(field.takes)")
            }
            return .number(number.doubleValue)
        case .time:
            return .time(try Self.time(value, field: name))
        case .times:
            guard let list = value as? [Any] else { throw FieldError("'\(name)' must be \(field.takes)") }
            return .times(try list.map { try Self.time($0, field: name) })
        case .flag:
            guard let number = value as? NSNumber, number.isBoolean else { throw FieldError("'\(name)' must be true or false") }
            return .flag(number.boolValue)
        case .choice(let words):
            guard let text = value as? String, words.contains(text) else {
                throw FieldError("'\(name)' must be one of \(words.joined(separator: ", "))\((value as? String).map { ", not '\($0)'" } ?? "")")
            }
            return .text(text)
        case .text, .path:
            guard let text = value as? String else { throw FieldError("'\(name)' must be a string") }
            return .text(text)
        case .eventNames:
            guard let list = value as? [Any], let names = list as? [String] else { throw FieldError("'\(name)' must be \(field.takes)") }
            for event in names where !PlayerEvent.allNames.contains(event) {
                throw FieldError("unknown event '\(event)'; events: \(PlayerEvent.allNames.sorted().joined(separator: ", "))")
            }
            return .names(names)
        case .object:
            guard let inner = value as? [String: Any],
                  let data = try? JSONSerialization.data(withJSONObject: [name: inner], options: [.prettyPrinted, .sortedKeys]) else {
                throw FieldError("'\(name)' must be \(field.takes)")
            }
            return .object(json: String(decoding: data, as: UTF8.self))
        }
    }

    /// Seconds as a number (`83.2`) or a string (`"83.2"`, `"1:23.2"`), never negative.
    static func time(_ value: Any, field: String) throws -> MediaTime {
        if let text = value as? String {
            switch MediaTime.parse(text) {
            case .success(let time): return time
            case .failure(let error): throw FieldError("'\(field)': \(error)")
            }
        }
        guard let number = value as? NSNumber, !number.isBoolean else {
            throw FieldError("'\(field)' must be seconds (a number) or a time string like \"1:23.5\"")
        }
        let seconds = number.doubleValue
        guard seconds.isFinite, seconds >= 0, seconds < 1e9 else {
            throw FieldError("'\(field)' must be a time from 0 seconds up, not \(number)")
        }
        // Microseconds: finer than any frame, and exact for the decimals people type.
        return MediaTime(Int64((seconds * 1_000_000).rounded()), per: 1_000_000)
    }
}
