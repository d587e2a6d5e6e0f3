/// Where a media reference names its scheme. Config validation and the media backend must agree
/// on what is a path and what is a URL, so both ask here.
public enum URLScheme {
    /// The scheme in lower case if `text` starts with one (RFC 3986: a letter, then letters,
    /// digits, `+`, `-` or `.`, then `:`); nil for a path. `media/a:b.mp4` is a path (a `/` comes
    /// before the colon); a bare `a:b.mp4` reads as a scheme, so write `./a:b.mp4`.
    public static func of(_ text: String) -> String? {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return nil }
        let candidate = text[..<colon]
        guard let first = candidate.first, first.isASCII, first.isLetter,
              candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return candidate.lowercased()
    }
}
