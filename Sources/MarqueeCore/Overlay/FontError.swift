/// A font file that cannot be used, said in one line that names the file and the cause:
/// `cannot use font /usr/share/fonts/x.ttf: No such file or directory`.
public struct FontError: Error, Hashable, Sendable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot use font \(path): \(reason)" }
}
