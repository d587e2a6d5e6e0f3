import Foundation

/// The head of the response being received, rebuilt from the header lines libcurl hands over one
/// at a time. A followed redirect, a `100 Continue` or a proxy's CONNECT answer each start a block
/// of their own with a new status line, and everything is forgotten there: what is left when the
/// transfer ends is the final response's, never an ETag or a length of a hop on the way.
struct ResponseHeaders {
    var status = 0
    var etag: String?
    var lastModified: String?
    var contentLength: Int64?
    /// Where a redirect pointed: kept to name the scheme of one that libcurl refused to follow.
    var location: String?
    /// The first byte of a 206's body (`Content-Range: bytes START-END/TOTAL`).
    var rangeStart: Int64?

    var isSuccess: Bool { (200..<300).contains(status) }

    /// One line as libcurl delivers it, with its CRLF.
    mutating func take(line: String) {
        let line = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            let fields = line.split(separator: " ", maxSplits: 2)
            self = ResponseHeaders()
            status = fields.count > 1 ? Int(fields[1]) ?? 0 : 0
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }  // the blank line ending a block
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        switch line[..<colon].lowercased() {
        case "etag": etag = value
        case "last-modified": lastModified = value
        case "content-length": contentLength = Int64(value)
        case "location": location = value
        case "content-range": rangeStart = Self.rangeStart(value)
        default: break
        }
    }

    /// START of `bytes START-END/TOTAL`.
    private static func rangeStart(_ value: String) -> Int64? {
        guard value.lowercased().hasPrefix("bytes ") else { return nil }
        return value.dropFirst("bytes ".count).split(separator: "-").first.flatMap { Int64($0) }
    }
}
