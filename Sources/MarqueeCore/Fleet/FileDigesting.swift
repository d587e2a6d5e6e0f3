/// Computes SHA-256 digests: what the media cache names and verifies its files by, and what names
/// a partial download (by its URL) and checks a saved config. MarqueeMedia implements it with
/// libavutil's SHA-256 (already linked; no second crypto library, none hand-written).
public protocol FileDigesting: Sendable {
    /// Lower-case hex, 64 characters. Throws a one-line reason when the file cannot be read.
    func sha256(ofFileAt path: String) throws -> String
    /// The same for bytes in memory (a URL, a config's text).
    func sha256(of bytes: [UInt8]) -> String
}
