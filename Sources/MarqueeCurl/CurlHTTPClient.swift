import MarqueeCore

/// `HTTPTransferring` through libcurl: one easy handle per call, made, used and cleaned up on the
/// calling thread, so the client itself holds no state and is shared freely between download
/// threads. Only http and https, TLS always verified, redirects followed up to 5 times.
public struct CurlHTTPClient: HTTPTransferring {
    /// Sent as `User-Agent`, so a CMS's logs can tell players from browsers.
    public var userAgent: String

    public init(userAgent: String = "Marquee") {
        self.userAgent = userAgent
    }

    public func fetch(_ request: HTTPRequest, maxBytes: Int) throws(HTTPTransferError) -> HTTPResponse {
        let body = MemoryBody(limit: maxBytes)
        let head = try CurlTransfer(request: request, body: body, resumes: false, userAgent: userAgent).run()
        return HTTPResponse(head: head, body: body.data)
    }

    public func download(_ request: HTTPRequest, appendingTo path: String,
                         progress: (_ bytesOnDisk: Int64, _ expectedTotal: Int64?) -> Bool) throws(HTTPTransferError) -> HTTPResponseHead {
        try download(request, appendingTo: path, onHead: { _ in }, progress: progress)
    }

    public func download(_ request: HTTPRequest, appendingTo path: String, onHead: (HTTPResponseHead) -> Void,
                         progress: (_ bytesOnDisk: Int64, _ expectedTotal: Int64?) -> Bool) throws(HTTPTransferError) -> HTTPResponseHead {
        let file = try FileBody(path: path, resumeFrom: request.resumeFrom, limit: request.maxFileBytes)
        // The transfer only holds the callbacks while `run` blocks, so they never really escape.
        let outcome = withoutActuallyEscaping(onHead) { onHead in
            withoutActuallyEscaping(progress) { progress in
                file.onBegin = { headers, resumedFrom in
                    onHead(HTTPResponseHead(status: headers.status, etag: headers.etag, lastModified: headers.lastModified,
                                            contentLength: headers.contentLength, resumedFrom: resumedFrom, effectiveURL: request.url))
                }
                defer { file.onBegin = nil }
                return Result { () throws(HTTPTransferError) in
                    try CurlTransfer(request: request, body: file, resumes: true, userAgent: userAgent, progress: progress).run()
                }
            }
        }
        return try outcome.get()
    }
}
