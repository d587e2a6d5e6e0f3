/// One problem found in a config file, pinned to the key or value that caused it.
///
/// `description` is the line `marquee check` prints: `FILE:LINE:COLUMN: error: message`, the shape
/// compilers use, so editors and CI logs turn it into a link.
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable, Equatable {
        /// The config cannot be used.
        case error
        /// The config works, but probably not as intended (e.g. a media file is not there yet).
        case warning
    }

    public let severity: Severity
    /// The config path exactly as the user gave it, so the printed location matches what they typed.
    public let file: String
    /// 1-based.
    public let line: Int
    /// 1-based, counted in Unicode scalars (as libyaml counts).
    public let column: Int
    public let message: String

    public init(severity: Severity, file: String, line: Int, column: Int, message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        "\(file):\(line):\(column): \(severity.rawValue): \(message)"
    }
}
