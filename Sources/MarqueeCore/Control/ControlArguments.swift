/// A value a request carried, already checked against its field's kind.
public enum ControlValue: Sendable, Equatable {
    case integer(Int)
    case number(Double)
    case flag(Bool)
    case text(String)
    case time(MediaTime)
    case times([MediaTime])
    case names([String])
    /// A one-key JSON document, `{"NAME": {...}}`.
    case object(json: String)
}

/// Why a request's values do not make a command: one line naming the field.
public struct ControlArgumentError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The checked values of one request, as its command's builder reads them. Each accessor gives
/// nil for a field the request left out; the kinds were checked when the values were read, so a
/// field of another kind is a programming error in the table, answered as a refusal.
public struct ControlArguments: Sendable {
    public let command: String
    public let values: [String: ControlValue]

    public init(command: String, values: [String: ControlValue]) {
        self.command = command
        self.values = values
    }

    public func has(_ name: String) -> Bool { values[name] != nil }

    public func integer(_ name: String) -> Int? {
        if case .integer(let value)? = values[name] { value } else { nil }
    }

    public func number(_ name: String) -> Double? {
        switch values[name] {
        case .number(let value)?: value
        case .integer(let value)?: Double(value)
        default: nil
        }
    }

    public func flag(_ name: String) -> Bool? {
        if case .flag(let value)? = values[name] { value } else { nil }
    }

    public func text(_ name: String) -> String? {
        if case .text(let value)? = values[name] { value } else { nil }
    }

    public func time(_ name: String) -> MediaTime? {
        if case .time(let value)? = values[name] { value } else { nil }
    }

    public func times(_ name: String) -> [MediaTime]? {
        if case .times(let value)? = values[name] { value } else { nil }
    }

    public func names(_ name: String) -> [String]? {
        if case .names(let value)? = values[name] { value } else { nil }
    }

    public func object(_ name: String) -> String? {
        if case .object(let json)? = values[name] { json } else { nil }
    }

    /// A field whose kind is `.choice` of this type's raw values.
    public func choice<Choice: RawRepresentable>(_ name: String, of type: Choice.Type) -> Choice? where Choice.RawValue == String {
        text(name).flatMap(Choice.init(rawValue:))
    }

    /// A field the table marks required: present once the parser has passed the request on.
    public func required<Value>(_ value: Value?, _ name: String) throws(ControlArgumentError) -> Value {
        guard let value else { throw ControlArgumentError("\(command) needs '\(name)'") }
        return value
    }
}
