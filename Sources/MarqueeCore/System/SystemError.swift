import Glibc

/// One failed system call: its errno, the call, and what it acted on. Every backend reports errno
/// failures with this one type, so logs, `marquee probe` and tests read one format everywhere:
/// `open /dev/dri/card0: Permission denied (errno 13)`. Swift values only (no C type), so it
/// crosses module edges freely.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The positive errno value (EACCES, ENODEV, EINTR ...).
    public let code: Int32
    /// The call as a reader would search for it: `open`, `poll`, `CEC_ADAP_S_LOG_ADDRS`,
    /// `drmModeSetCrtc(crtc 38)`.
    public let operation: String
    /// The file or device it acted on, when there is one (`/dev/cec1`).
    public let path: String?

    public init(code: Int32, operation: String, path: String? = nil) {
        self.code = code
        self.operation = operation
        self.path = path
    }

    /// strerror's text for the code (`Permission denied`).
    public var message: String { String(cString: strerror(code)) }

    public var description: String {
        let subject = path.map { "\(operation) \($0)" } ?? operation
        return "\(subject): \(message) (errno \(code))"
    }
}
