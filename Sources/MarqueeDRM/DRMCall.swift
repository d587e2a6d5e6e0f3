import Glibc
import MarqueeCore

/// libdrm's calls return either -1 with errno set (drmIoctl) or -errno (the xf86drmMode wrappers);
/// this reads both into a `SystemError`. Returns the non-negative result (an fd, a count) for
/// callers that want it.
@discardableResult
func drmChecked(_ result: Int32, _ operation: @autoclosure () -> String) throws(SystemError) -> Int32 {
    guard result < 0 else { return result }
    let code = result == -1 ? errno : -result
    throw SystemError(code: code, operation: operation())
}

/// For the getters that return a pointer, and NULL with errno set on failure.
func drmNonNull<T>(_ pointer: T?, _ operation: @autoclosure () -> String) throws(SystemError) -> T {
    guard let pointer else { throw SystemError(code: errno, operation: operation()) }
    return pointer
}

/// A call refused because someone else is DRM master now (a VT switch without VT_PROCESS, a
/// compositor): the picture pauses, and neither the plane nor the output is blamed.
func drmLostMaster(_ error: any Error) -> Bool {
    guard let error = error as? SystemError else { return false }
    return error.code == EACCES || error.code == EPERM
}
