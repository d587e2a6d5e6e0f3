import CMosquitto
import Foundation

/// A libmosquitto call that failed: the operation, its code and the library's words for it.
public struct MQTTError: Error, Sendable, CustomStringConvertible {
    public let operation: String
    public let code: Int32
    public let message: String

    init(_ operation: String, code: Int32) {
        self.operation = operation
        self.code = code
        self.message = MQTTError.describe(code, errno: marquee_mosquitto_errno())
    }

    /// MOSQ_ERR_ERRNO's text is errno's (`Connection refused`); other codes are the library's.
    static func describe(_ code: Int32, errno: Int32) -> String {
        if code == Int32(MOSQ_ERR_ERRNO.rawValue) {
            return String(cString: strerror(errno))
        }
        // The library's sentences end with a full stop; journal lines put them in parentheses.
        var text = String(cString: mosquitto_strerror(code))
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }

    public var description: String { "\(operation): \(message)" }
}
