/// Why a picture could not be written to a file, as one line: `out/thumb.png: No such file or directory`.
public struct ImageWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file path, as the caller named it.
    public let path: String
    public let reason: String
    /// The FFmpeg call that failed, when the cause came from FFmpeg (conversion, encoding).
    public let underlying: FFmpegError?

    public init(path: String, reason: String, underlying: FFmpegError? = nil) {
        self.path = path
        self.reason = reason
        self.underlying = underlying
    }

    public var description: String { "\(path): \(reason)" }
}
