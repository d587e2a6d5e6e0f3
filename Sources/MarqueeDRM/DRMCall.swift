import Glibc

/// One failed DRM call: the errno it failed with, which call it was, and strerror's text.
/// Holds Swift values only, so it can leave the module inside `DRMVideoOutput`'s errors.
public struct DRMError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A positive errno value (EACCES, EBUSY, EINVAL ...), or 0 for failures with no code.
    public let code: Int32
    /// The C function, with the object it acted on when there is one (`drmModeSetCrtc(crtc 38)`).
    public let operation: String
    public let message: String

    init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
        self.message = code == 0 ? "failed" : String(cString: strerror(code))
    }

    /// For choices that fail without a C call (no connector, no CRTC, no plane).
    init(operation: String, message: String) {
        self.code = 0
        self.operation = operation
        self.message = message
    }

    public var description: String {
        code == 0 ? "\(operation): \(message)" : "\(operation) failed: \(message) (errno \(code))"
    }
}

/// libdrm's calls return either -1 with errno set (drmIoctl) or -errno (the xf86drmMode wrappers);
/// this reads both. Returns the non-negative result (an fd, a count) for callers that want it.
@discardableResult
func drmChecked(_ result: Int32, _ operation: @autoclosure () -> String) throws(DRMError) -> Int32 {
    guard result < 0 else { return result }
    let code = result == -1 ? errno : -result
    throw DRMError(code: code, operation: operation())
}

/// For the getters that return a pointer, and NULL with errno set on failure.
func drmNonNull<T>(_ pointer: T?, _ operation: @autoclosure () -> String) throws(DRMError) -> T {
    guard let pointer else { throw DRMError(code: errno, operation: operation()) }
    return pointer
}
