import Foundation
import MarqueeCore

/// The status document as JSON: one line for MQTT's retained status, the fields of the socket's
/// reply (beside `ok` and `id`), and back again for `marquee ctl status`.
public enum StatusCoding {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    public static func line(_ document: StatusDocument) -> String {
        guard let data = try? encoder.encode(document) else { return #"{"error":"internal: the status could not be encoded"}"# }
        return String(decoding: data, as: UTF8.self)
    }

    static func fields(_ document: StatusDocument) -> [String: Any] {
        guard let data = try? encoder.encode(document),
              let fields = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return fields
    }

    /// A status reply (or MQTT's status) read back; the reply's `ok` and `id` are passed over.
    public static func document(_ line: String) throws -> StatusDocument {
        try JSONDecoder().decode(StatusDocument.self, from: Data(line.utf8))
    }
}
