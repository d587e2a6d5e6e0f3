import Foundation

/// Reply lines: `{"id":7,"ok":true,...}` or `{"id":7,"ok":false,"error":"..."}`, keys sorted so
/// lines are byte-stable, like the events log's.
enum ControlReply {
    enum Outcome {
        case success([String: Any])
        case failure(String, extra: [String: Any] = [:])

        static func failure(_ message: String) -> Outcome { .failure(message, extra: [:]) }
    }

    static func line(id: ControlRequestID?, _ outcome: Outcome) -> String {
        var fields: [String: Any]
        switch outcome {
        case .success(let values):
            fields = values
            fields["ok"] = true
        case .failure(let message, let extra):
            fields = extra
            fields["ok"] = false
            fields["error"] = message
        }
        if let id { fields["id"] = id.jsonValue }
        return line(fields)
    }

    /// One object as a line of JSON. Values are strings, numbers, booleans, lists and objects of
    /// them; a value JSON cannot hold (a NaN) is a programming error, said in the line itself.
    static func line(_ fields: [String: Any]) -> String {
        guard JSONSerialization.isValidJSONObject(fields),
              let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return #"{"error":"internal: a reply could not be encoded","ok":false}"#
        }
        return String(decoding: data, as: UTF8.self)
    }
}
