import Foundation

/// A blocking HTTP(S) client: what the remote config poller and the media cache fetch with. The
/// libcurl backend (MarqueeCurl) implements it; the fleet logic only sees this. Calls block the
/// calling thread (a download thread, never the present thread) until the transfer ends, fails, or
/// the progress callback asks it to stop.
public protocol HTTPTransferring: Sendable {
    /// GET into memory, refused (`HTTPTransferError.tooLarge`) past `maxBytes` of body. A 304 is
    /// a response, not an error; other statuses of 400 and above are errors.
    func fetch(_ request: HTTPRequest, maxBytes: Int) throws(HTTPTransferError) -> HTTPResponse

    /// GET appending the body to the file at `path` (created if missing). With
    /// `request.resumeFrom` > 0 it asks for `Range: bytes=N-`; a server that answers 200 instead
    /// of 206 sends the whole file, so the file is truncated to 0 first and `head.resumedFrom` is 0.
    /// `progress` is called at most every 100 ms with the bytes of the file so far and the
    /// expected total when known; returning false aborts the transfer (`.cancelled`).
    func download(_ request: HTTPRequest, appendingTo path: String,
                  progress: (_ bytesOnDisk: Int64, _ expectedTotal: Int64?) -> Bool) throws(HTTPTransferError) -> HTTPResponseHead

    /// `download`, telling `onHead` the 2xx response's head before the first byte of its body is
    /// written: the validators a part file was started with are known even when the transfer is
    /// then cut (a kill -9, a power cut), so a resume can send `If-Range`.
    func download(_ request: HTTPRequest, appendingTo path: String, onHead: (HTTPResponseHead) -> Void,
                  progress: (_ bytesOnDisk: Int64, _ expectedTotal: Int64?) -> Bool) throws(HTTPTransferError) -> HTTPResponseHead
}

extension HTTPTransferring {
    /// For a client that only learns the head at the end: `onHead` hears of it then.
    public func download(_ request: HTTPRequest, appendingTo path: String, onHead: (HTTPResponseHead) -> Void,
                         progress: (_ bytesOnDisk: Int64, _ expectedTotal: Int64?) -> Bool) throws(HTTPTransferError) -> HTTPResponseHead {
        let head = try download(request, appendingTo: path, progress: progress)
        if (200..<300).contains(head.status) { onHead(head) }
        return head
    }
}

/// One GET: where, the validators for a conditional request, a resume offset, and limits.
public struct HTTPRequest: Sendable, Equatable {
    public var url: URL
    /// `If-None-Match`: the ETag of the copy held.
    public var ifNoneMatch: String?
    /// `If-Modified-Since`: the `Last-Modified` of the copy held, as the server sent it.
    public var ifModifiedSince: String?
    /// `Range: bytes=N-` when above 0 (downloads only).
    public var resumeFrom: Int64 = 0
    /// `If-Range`: the ETag the partial file was started with. A server whose file has changed
    /// since answers 200 with the whole new file instead of 206 with the rest of the old one.
    public var ifRange: String?
    /// Bytes per second at most (`cache.maxRate`); nil: as fast as the link goes.
    public var maxBytesPerSecond: Int64?
    /// Downloads: the most the file may hold (the part resumed from included); a body announced
    /// or running past it fails with `tooLarge` before a byte more is written. nil: no bound.
    public var maxFileBytes: Int64?
    public var security = HTTPSecurity()
    /// How long connecting may take.
    public var connectTimeout: Duration = .seconds(15)
    /// A transfer that moves under 1 byte/s for this long is abandoned (a server gone silent).
    public var stallTimeout: Duration = .seconds(30)
    /// `fetch` only: POSTs this body (with `contentType`) instead of a GET, and follows no
    /// redirect (a 3xx is an error: a body is never re-sent elsewhere, or turned into a GET).
    public var body: [UInt8]?
    public var contentType: String?

    public init(url: URL, ifNoneMatch: String? = nil, ifModifiedSince: String? = nil, resumeFrom: Int64 = 0,
                ifRange: String? = nil, maxBytesPerSecond: Int64? = nil, security: HTTPSecurity = HTTPSecurity()) {
        self.url = url
        self.ifNoneMatch = ifNoneMatch
        self.ifModifiedSince = ifModifiedSince
        self.resumeFrom = resumeFrom
        self.ifRange = ifRange
        self.maxBytesPerSecond = maxBytesPerSecond
        self.security = security
    }
}

/// TLS and authentication for a request. Verification is always on; `caFile` adds a bundle to trust.
public struct HTTPSecurity: Sendable, Equatable {
    /// A PEM bundle of CAs to trust instead of the system's (a private CMS's own CA).
    public var caFile: String?
    /// Basic credentials, read from the file the config names; never logged or put in a message.
    public var credentials: HTTPCredentials?

    public init(caFile: String? = nil, credentials: HTTPCredentials? = nil) {
        self.caFile = caFile
        self.credentials = credentials
    }
}

/// A user name and password. `description` never shows the password.
public struct HTTPCredentials: Sendable, Equatable, CustomStringConvertible {
    public var user: String
    public var password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    public var description: String { "\(user):***" }
}

/// What the server answered, without the body.
public struct HTTPResponseHead: Sendable, Equatable {
    /// The final status, after redirects.
    public var status: Int
    public var etag: String?
    public var lastModified: String?
    /// The body's length as the server announced it (`Content-Length`), nil when not announced.
    public var contentLength: Int64?
    /// Where a download's body started in the file: the resume offset on a 206, 0 on a 200.
    public var resumedFrom: Int64
    /// The URL the body came from, after redirects.
    public var effectiveURL: URL

    public init(status: Int, etag: String? = nil, lastModified: String? = nil, contentLength: Int64? = nil,
                resumedFrom: Int64 = 0, effectiveURL: URL) {
        self.status = status
        self.etag = etag
        self.lastModified = lastModified
        self.contentLength = contentLength
        self.resumedFrom = resumedFrom
        self.effectiveURL = effectiveURL
    }

    public var isNotModified: Bool { status == 304 }
}

/// A fetched body with its head.
public struct HTTPResponse: Sendable, Equatable {
    public var head: HTTPResponseHead
    public var body: Data

    public init(head: HTTPResponseHead, body: Data) {
        self.head = head
        self.body = body
    }
}

/// Why a transfer failed, worded as the rest of a one-line error (the caller names the URL,
/// with any password in it redacted).
public enum HTTPTransferError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A status of 400 or above (after redirects).
    case status(Int)
    /// DNS, connect, TLS, a reset or cut connection, a stall: the network's fault, worth a retry.
    case network(String)
    /// A redirect to a scheme other than http/https, more than 5 redirects, an unsupported scheme.
    case refused(String)
    /// The body was longer than allowed, or than announced.
    case tooLarge(Int64)
    /// The body ended before its announced length.
    case truncated(received: Int64, expected: Int64)
    /// The progress callback asked to stop.
    case cancelled
    /// Writing the file failed (a full disk: ENOSPC is named as such).
    case file(String)

    public var description: String {
        switch self {
        case .status(let code): "HTTP \(code)"
        case .network(let reason): reason
        case .refused(let reason): reason
        case .tooLarge(let bytes): "body larger than \(bytes) bytes"
        case .truncated(let received, let expected): "body cut short: \(received) of \(expected) bytes"
        case .cancelled: "cancelled"
        case .file(let reason): reason
        }
    }

    /// Worth trying again later: the network, a server error, a cut body. Not a 404 or a refused
    /// redirect, which will answer the same way next time (they are still retried, but slowly).
    public var isTransient: Bool {
        switch self {
        case .network, .truncated: true
        case .status(let code): code >= 500 || code == 408 || code == 429
        case .refused, .tooLarge, .cancelled, .file: false
        }
    }
}
