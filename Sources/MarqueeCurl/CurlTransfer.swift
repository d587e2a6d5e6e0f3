import CCurl
import Foundation
import MarqueeCore

/// One GET through one easy handle: sets the handle up from an `HTTPRequest`, receives the headers
/// and body through libcurl's callbacks (on the calling thread, inside `curl_easy_perform`), and
/// turns the outcome into a head or an `HTTPTransferError`. The C callbacks find this object
/// through their userdata pointer; `run` keeps it alive for the whole perform.
final class CurlTransfer {
    private let request: HTTPRequest
    private let body: BodySink
    /// Downloads resume; a fetch never asks for a range.
    private let resumes: Bool
    private let progress: ((Int64, Int64?) -> Bool)?
    private let userAgent: String

    private var headers = ResponseHeaders()
    private var bodyStarted = false
    private var bodyBytes: Int64 = 0
    /// Why a callback stopped the transfer: reported instead of libcurl's generic write/abort error.
    private var stopReason: HTTPTransferError?
    private var throttle = ProgressThrottle()
    private var stallWatch: StallWatch
    private var rateLimiter: RateLimiter?
    /// Set while `run` performs, for the progress callback to ask whether the connection is up.
    private var easy: CurlEasyHandle?

    init(request: HTTPRequest, body: BodySink, resumes: Bool, userAgent: String,
         progress: ((Int64, Int64?) -> Bool)? = nil) {
        self.request = request
        self.body = body
        self.resumes = resumes
        self.userAgent = userAgent
        self.progress = progress
        stallWatch = StallWatch(timeout: request.stallTimeout)
        rateLimiter = request.maxBytesPerSecond.flatMap { $0 > 0 ? RateLimiter(bytesPerSecond: $0) : nil }
    }

    func run() throws(HTTPTransferError) -> HTTPResponseHead {
        let scheme = request.url.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else {
            throw .refused("\(scheme.isEmpty ? "a URL without a scheme" : "scheme \(scheme):") refused; only http and https are fetched")
        }
        let easy = try CurlEasyHandle()
        try configure(easy)
        self.easy = easy
        let code = withExtendedLifetime(self) { easy.perform() }
        self.easy = nil
        if let stopReason { throw stopReason }
        guard code == CURLE_OK else { throw failure(code, easy) }
        let status = headers.status
        if headers.isSuccess, !bodyStarted { try body.begin(headers) }  // a 2xx without a body
        guard headers.isSuccess || (status == 304 && request.body == nil) else { throw .status(status) }
        return HTTPResponseHead(status: status, etag: headers.etag, lastModified: headers.lastModified,
                                contentLength: headers.contentLength, resumedFrom: body.resumedFrom,
                                effectiveURL: easy.string(CURLINFO_EFFECTIVE_URL).flatMap(URL.init(string:)) ?? request.url)
    }

    // MARK: Setting the handle up

    private func configure(_ easy: CurlEasyHandle) throws(HTTPTransferError) {
        // Transfers run on many threads at once: no SIGALRM for DNS timeouts.
        try easy.set(CURLOPT_NOSIGNAL, 1)
        try easy.set(CURLOPT_URL, request.url.absoluteString)
        // Only the web: a redirect to file:, ftp:, gopher: and the like is refused, not followed.
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        if let upload = request.body {
            // Size first: COPYPOSTFIELDS copies that many bytes (a body may hold zeros).
            try easy.set(CURLOPT_POST, 1)
            try easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(upload.count))
            let copied: Result<Void, HTTPTransferError> = upload.withUnsafeBytes { bytes in
                Result { () throws(HTTPTransferError) in
                    try easy.set(CURLOPT_COPYPOSTFIELDS, pointer: UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
                }
            }
            try copied.get()
            try easy.set(CURLOPT_FOLLOWLOCATION, 0)
        } else {
            try easy.set(CURLOPT_FOLLOWLOCATION, 1)
            try easy.set(CURLOPT_MAXREDIRS, Self.maxRedirects)
        }
        try easy.set(CURLOPT_SSL_VERIFYPEER, 1)
        try easy.set(CURLOPT_SSL_VERIFYHOST, 2)
        if let caFile = request.security.caFile { try easy.set(CURLOPT_CAINFO, caFile) }
        if let credentials = request.security.credentials {
            try easy.set(CURLOPT_HTTPAUTH, marquee_curlauth_basic())
            try easy.set(CURLOPT_USERNAME, credentials.user)
            try easy.set(CURLOPT_PASSWORD, credentials.password)
        }
        try easy.set(CURLOPT_USERAGENT, userAgent)
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, max(1, Self.milliseconds(request.connectTimeout)))
        // Under 1 byte/s for the stall timeout (whole seconds, at least one): a server gone silent.
        // libcurl notices about five seconds late (see StallWatch), so this is only the backstop.
        try easy.set(CURLOPT_LOW_SPEED_LIMIT, 1)
        try easy.set(CURLOPT_LOW_SPEED_TIME, max(1, (Self.milliseconds(request.stallTimeout) + 999) / 1000))
        if let rate = request.maxBytesPerSecond, rate > 0 {
            try easy.set(CURLOPT_MAX_RECV_SPEED_LARGE, offset: rate)
            // Reads of a quarter second's worth at most (libcurl's floor is 1 KB), so the rate
            // limiter's pauses are short and even rather than one long wait per 16 KB read.
            if rate < 64 * 1024 { try easy.set(CURLOPT_BUFFERSIZE, Int(max(1024, rate / 4))) }
        }
        // `Range: bytes=N-` by hand, not CURLOPT_RESUME_FROM_LARGE: with that, libcurl fails a 200
        // answer (CURLE_RANGE_ERROR) where the contract wants the whole file taken instead.
        if resumes, request.resumeFrom > 0 { try easy.set(CURLOPT_RANGE, "\(request.resumeFrom)-") }
        try easy.setHeaders(try requestHeaders())

        let userdata = Unmanaged.passUnretained(self).toOpaque()
        try easy.set(CURLOPT_HEADERFUNCTION, callback: { data, size, count, userdata in
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata!).takeUnretainedValue()
            transfer.headers.take(line: String(decoding: UnsafeRawBufferPointer(start: data, count: size * count), as: UTF8.self))
            return size * count
        })
        try easy.set(CURLOPT_HEADERDATA, pointer: userdata)
        try easy.set(CURLOPT_WRITEFUNCTION, callback: { data, size, count, userdata in
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata!).takeUnretainedValue()
            // Anything but the full count makes libcurl stop with CURLE_WRITE_ERROR.
            return transfer.receive(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
        })
        try easy.set(CURLOPT_WRITEDATA, pointer: userdata)
        // Always on: the stall watch runs here, at least once a second, data or not.
        try easy.setProgress({ userdata, _, received, _, _ in
            Unmanaged<CurlTransfer>.fromOpaque(userdata!).takeUnretainedValue().tick(received: Int64(received)) ? 0 : 1
        })
        try easy.set(CURLOPT_XFERINFODATA, pointer: userdata)
        try easy.set(CURLOPT_NOPROGRESS, 0)
    }

    static let maxRedirects = 5

    /// Validators and If-Range. A value with a line break in it would smuggle a header in: refused.
    private func requestHeaders() throws(HTTPTransferError) -> [String] {
        var lines: [String] = []
        let resuming = resumes && request.resumeFrom > 0
        for (name, value) in [("If-None-Match", request.ifNoneMatch), ("If-Modified-Since", request.ifModifiedSince),
                              ("If-Range", resuming ? request.ifRange : nil),
                              ("Content-Type", request.body != nil ? request.contentType : nil)] {
            guard let value else { continue }
            guard !value.contains(where: \.isNewline) else { throw .refused("\(name) value with a line break refused") }
            lines.append("\(name): \(value)")
        }
        return lines
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    // MARK: Callbacks

    /// A body chunk: the final 2xx response's goes to the sink; an error status stops the transfer
    /// before anything of its body is kept; a redirect's or an interim response's is dropped.
    private func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if headers.status >= 400 {
            stopReason = .status(headers.status)
            return false
        }
        guard headers.isSuccess else { return true }
        do throws(HTTPTransferError) {
            if !bodyStarted {
                try body.begin(headers)
                bodyStarted = true
            }
            try body.write(bytes)
            bodyBytes += Int64(bytes.count)
        } catch {
            stopReason = error
            return false
        }
        return holdToRate(after: bytes.count)
    }

    /// Sleeps off what the rate limit asks, in slices of at most 100 ms with a progress report
    /// between them, so a cancel is heard while waiting too.
    private func holdToRate(after count: Int) -> Bool {
        guard var delay = rateLimiter?.delay(after: count) else { return true }
        while delay > .zero {
            let slice = min(delay, .milliseconds(100))
            Thread.sleep(forTimeInterval: Double(slice.components.attoseconds) / 1e18 + Double(slice.components.seconds))
            delay -= slice
            guard reportProgress() else { return false }
        }
        return true
    }

    /// libcurl's progress function: the stall watch, then the caller's progress.
    private func tick(received: Int64) -> Bool {
        let connected = (easy?.offset(CURLINFO_CONNECT_TIME_T) ?? 0) > 0
        if stallWatch.isStalled(received: received, connected: connected) {
            let milliseconds = Self.milliseconds(stallWatch.timeout)
            let text = milliseconds % 1000 == 0 ? "\(milliseconds / 1000)" : "\(Double(milliseconds) / 1000)"
            stopReason = .network("no data for \(text) s: the server went silent")
            return false
        }
        return reportProgress()
    }

    private func reportProgress() -> Bool {
        guard let progress, throttle.isDue() else { return true }
        guard progress(body.bytesHeld, expectedTotal) else {
            stopReason = .cancelled
            return false
        }
        return true
    }

    /// The whole file's size once a 2xx says it: the resume offset plus a 206's length.
    private var expectedTotal: Int64? {
        guard headers.isSuccess, let length = headers.contentLength else { return nil }
        return headers.status == 206 ? request.resumeFrom + length : length
    }

    // MARK: Failures

    private func failure(_ code: CURLcode, _ easy: CurlEasyHandle) -> HTTPTransferError {
        switch code {
        case CURLE_PARTIAL_FILE:
            return .truncated(received: bodyBytes, expected: headers.contentLength ?? bodyBytes)
        case CURLE_UNSUPPORTED_PROTOCOL:
            // The first URL's scheme was checked before starting, so this is where a redirect led.
            let target = headers.location.flatMap { URL(string: $0, relativeTo: request.url)?.scheme }
            return .refused("redirect to \(target.map { "\($0):" } ?? "an unsupported scheme") refused; only http and https are followed")
        case CURLE_TOO_MANY_REDIRECTS:
            return .refused("more than \(Self.maxRedirects) redirects")
        case CURLE_ABORTED_BY_CALLBACK:
            return .cancelled
        case CURLE_URL_MALFORMAT:
            return .refused(redacted(easy.failureText(code)))
        default:
            return .network(redacted(easy.failureText(code)))
        }
    }

    /// libcurl's messages name hosts, not passwords; this makes sure of it.
    private func redacted(_ text: String) -> String {
        [request.security.credentials?.password, request.url.password].compactMap { $0 }.filter { !$0.isEmpty }
            .reduce(text) { $0.replacingOccurrences(of: $1, with: "***") }
    }
}
