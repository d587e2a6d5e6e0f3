import Glibc

/// One failed CEC call: the errno, which call on which device, and strerror's text. Swift values
/// only, so it can leave the module.
public struct CECError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A positive errno value (ENOENT, EBUSY, ENONET ...), or 0 for failures with no code.
    public let code: Int32
    /// The call and the device: `CEC_ADAP_S_LOG_ADDRS on /dev/cec1`, `open(/dev/cec9)`.
    public let operation: String
    public let message: String

    init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
        self.message = code == 0 ? "failed" : String(cString: strerror(code))
    }

    init(operation: String, message: String) {
        self.code = 0
        self.operation = operation
        self.message = message
    }

    public var description: String {
        code == 0 ? "\(operation): \(message)" : "\(operation) failed: \(message) (errno \(code))"
    }
}
