/// Computes a file's SHA-256: what the media cache names and verifies its files by. MarqueeMedia
/// implements it with libavutil's SHA-256 (already linked; no second crypto library).
public protocol FileDigesting: Sendable {
    /// Lower-case hex, 64 characters. Throws a one-line reason when the file cannot be read.
    func sha256(ofFileAt path: String) throws -> String
}
