/// Hides the password of every URL in a text: `http://user:secret@host/a.mp4` becomes
/// `http://user:***@host/a.mp4`. Everything Marquee shows (events, journal lines, the status line,
/// probe output, error lines, config diagnostics) passes through this; the media backend is still
/// given the real URL, so the server gets the real credentials.
public enum CredentialRedaction {
    public static let mask = "***"

    /// `text` with the password of each `scheme://user:password@host` in it replaced by `***`; a
    /// user name alone, or a URL without user info, is left as it is.
    public static func redacted(_ text: String) -> String {
        // Most texts name no credentials at all: leave them untouched, cheaply.
        guard text.contains("@"), text.contains("://") else { return text }
        var result = ""
        var rest = text[...]
        while let marker = rest.firstRange(of: "://") {
            result += rest[..<marker.upperBound]
            rest = rest[marker.upperBound...]
            // The authority runs to the path, query or fragment, or to where the URL ends in prose.
            let authorityEnd = rest.firstIndex { "/?#\"'<>`".contains($0) || $0.isWhitespace } ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            // The last @ ends the user info: a password may hold an unescaped @ too.
            guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":"),
                  authority.index(after: colon) < at else { continue }
            result += authority[...colon] + mask + authority[at...]
            rest = rest[authorityEnd...]
        }
        return result + rest
    }
}
