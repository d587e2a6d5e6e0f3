import Foundation
import MarqueeCore

/// A request object's fields, read with errors that name the field and what it takes.
struct RequestFields {
    let object: [String: Any]

    /// A misspelt field is an error rather than silently ignored (`"tolerance"` for
    /// `"toleranceBefore"` would otherwise seek with the default).
    func allowOnly(_ names: Set<String>, for command: String) throws {
        for key in object.keys.sorted() where key != "id" && key != "command" && !names.contains(key) {
            let takes = names.isEmpty ? "takes no fields" : "takes \(names.sorted().map { "'\($0)'" }.joined(separator: ", "))"
            throw FieldError("\(command) \(takes), not '\(key)'")
        }
    }

    func optionalTime(_ name: String) throws -> MediaTime? {
        guard let value = object[name], !(value is NSNull) else { return nil }
        return try Self.time(value, field: name)
    }

    func optionalTimes(_ name: String) throws -> [MediaTime]? {
        guard let value = object[name], !(value is NSNull) else { return nil }
        guard let list = value as? [Any] else { throw FieldError("'\(name)' must be a list of times, e.g. [12.0, \"1:23.2\"]") }
        return try list.map { try Self.time($0, field: name) }
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

    func integer(_ name: String, in range: ClosedRange<Int>, hint: String) throws -> Int {
        guard let value = try optionalInteger(name, in: range, hint: hint) else { throw FieldError("needs '\(name)': \(hint)") }
        return value
    }

    func optionalInteger(_ name: String, in range: ClosedRange<Int>, hint: String) throws -> Int? {
        guard let value = object[name], !(value is NSNull) else { return nil }
        guard let number = value as? NSNumber, !number.isBoolean, number.doubleValue.rounded() == number.doubleValue,
              number.doubleValue >= Double(range.lowerBound), number.doubleValue <= Double(range.upperBound) else {
            throw FieldError("'\(name)' must be a whole number from \(range.lowerBound)\(range.upperBound == Int.max ? " up" : " to \(range.upperBound)") (\(hint))")
        }
        return number.intValue
    }

    func number(_ name: String, in range: ClosedRange<Double>, hint: String) throws -> Double {
        guard let number = object[name] as? NSNumber, !number.isBoolean, range.contains(number.doubleValue) else {
            throw FieldError("'\(name)' must be a number \(hint)")
        }
        return number.doubleValue
    }

    func optionalBool(_ name: String) throws -> Bool? {
        guard let value = object[name], !(value is NSNull) else { return nil }
        guard let number = value as? NSNumber, number.isBoolean else { throw FieldError("'\(name)' must be true or false") }
        return number.boolValue
    }

    func optionalString(_ name: String) throws -> String? {
        guard let value = object[name], !(value is NSNull) else { return nil }
        guard let text = value as? String else { throw FieldError("'\(name)' must be a string") }
        return text
    }

    func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, of type: Choice.Type) throws -> Choice where Choice.RawValue == String {
        let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
        guard let text = object[name] as? String else { throw FieldError("needs '\(name)': one of \(names)") }
        guard let choice = Choice(rawValue: text) else { throw FieldError("'\(name)' must be one of \(names), not '\(text)'") }
        return choice
    }

    func optionalEventNames(_ name: String) throws -> [String]? {
        guard let value = object[name], !(value is NSNull) else { return nil }
        guard let list = value as? [Any], let names = list as? [String] else {
            throw FieldError("'\(name)' must be a list of event names, e.g. [\"itemStarted\", \"itemEnded\"]")
        }
        for event in names where !PlayerEvent.allNames.contains(event) {
            throw FieldError("unknown event '\(event)'; events: \(PlayerEvent.allNames.sorted().joined(separator: ", "))")
        }
        return names
    }
}
