import Foundation
import MarqueeCore

/// Why a request line was refused: one line for the reply's `error`, with the id when the line
/// had one, so the client can tell which request failed.
public struct ControlRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    public var id: ControlRequestID?
    public var message: String
    public var description: String { message }
}

/// Reads request lines against the vocabulary's table (`ControlVocabulary`). Everything a client
/// can get wrong (not JSON, not an object, no command, an unknown one, a missing or mistyped field,
/// a value out of range) is an error naming the field and what it wants; nothing here can crash on
/// any input.
public enum ControlRequestParser {
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
        do {
            let screen = try requestScreen(object["screen"])
            let command = try command(from: RequestFields(object: object))
            if screen != nil, let refusal = command.screenRefusal { throw FieldError(refusal) }
            return .success(ControlRequest(id: id, command: command, screen: screen))
        } catch let error as FieldError {
            return .failure(ControlRequestError(id: id, message: error.message))
        } catch let error as ControlArgumentError {
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

    /// `screen`, which any request may carry (whether its command takes one is asked after).
    private static func requestScreen(_ value: Any?) throws(FieldError) -> String? {
        guard let value, !(value is NSNull) else { return nil }
        guard let name = value as? String, !name.isEmpty else {
            throw FieldError("'screen' must be the name of a screen of displays:; leave it out for the main screen")
        }
        return name
    }

    private static func command(from fields: RequestFields) throws -> ControlCommand {
        guard let name = fields.object["command"] else { throw FieldError("no 'command': e.g. {\"command\":\"status\"}") }
        guard let name = name as? String else { throw FieldError("'command' must be a string, e.g. \"next\"") }
        guard let spec = ControlVocabulary.spec(named: name) else {
            throw FieldError("unknown command '\(name)'; commands: \(ControlVocabulary.names.joined(separator: ", "))")
        }
        try fields.allowOnly(Set(spec.fields.map(\.name)), for: name, besides: ["screen"])
        var values: [String: ControlValue] = [:]
        for field in spec.fields {
            if let value = try fields.value(of: field, for: name) { values[field.name] = value }
        }
        return try spec.command(ControlArguments(command: name, values: values))
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
