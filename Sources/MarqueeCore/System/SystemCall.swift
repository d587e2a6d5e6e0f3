import Glibc

/// The one way Marquee makes a blocking or interruptible system call: a signal (SIGHUP, the VT
/// switch signals, SIGCHLD) may land on any thread, so every call that can fail with EINTR is
/// run again here instead of in a loop written out at each call site. Failures become a
/// `SystemError` naming the call and its path. Tests force an errno on a named call through
/// `SystemCall.$faults` without the kernel's help.
public enum SystemCall {
    /// Errnos to report instead of running the call, bound per task (and per thread for
    /// synchronous code) so parallel tests do not see each other's faults. Nil in production.
    @TaskLocal public static var faults: SystemCallFaults?

    /// Runs `body` (a call that returns a negative value and sets errno on failure) until it is
    /// not interrupted; returns its non-negative result or throws its errno.
    @discardableResult
    public static func retrying(_ operation: String, path: String? = nil,
                                _ body: () -> Int32) throws(SystemError) -> Int32 {
        Int32(truncatingIfNeeded: try retryingSize(operation, path: path) { Int(body()) })
    }

    /// The ssize_t variant (read, write, recv, send): the byte count, or throws its errno.
    @discardableResult
    public static func retrying(_ operation: String, path: String? = nil,
                                _ body: () -> Int) throws(SystemError) -> Int {
        try retryingSize(operation, path: path, body)
    }

    private static func retryingSize(_ operation: String, path: String?, _ body: () -> Int) throws(SystemError) -> Int {
        let forced = faults
        while true {
            let code: Int32
            if let forcedCode = forced?.take(operation) {
                code = forcedCode
            } else {
                let result = body()
                if result >= 0 { return result }
                code = errno
            }
            // A signal handler ran while the call waited: nothing failed, ask again.
            if code == EINTR { continue }
            throw SystemError(code: code, operation: operation, path: path)
        }
    }
}
