/// A value written in config as one string (`#102030`, `1920x1080@60`, `headless:640x360`): it
/// encodes as its description and decodes by parsing, so each such type states only how to parse.
public protocol TextCodable: Codable, CustomStringConvertible {
    init?(parsing text: String)
    /// What kind of value it is, for the decoding error (`colour`, `mode`).
    static var textKind: String { get }
}

extension TextCodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Self(parsing: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "bad \(Self.textKind) '\(text)'")
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
