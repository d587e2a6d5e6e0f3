import Glibc

/// Why the control socket could not be set up or talked to: one line naming the path and the cause,
/// ready for a log or a terminal, e.g. `no player at /run/marquee/control.sock: connection refused`.
public struct ControlSocketError: Error, CustomStringConvertible, Equatable {
    public let description: String
    /// The errno behind it, when there was one.
    public let code: Int32?

    public init(_ description: String, code: Int32? = nil) {
        self.description = description
        self.code = code
    }

    /// strerror in lower case: `no such file or directory`.
    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
