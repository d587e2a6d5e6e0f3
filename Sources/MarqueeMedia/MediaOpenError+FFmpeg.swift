import CFFmpeg
import Foundation

extension MediaOpenError.Reason {
    /// Turns a failed open or probe into the cause an operator can act on. FFmpeg's codes are coarse
    /// (a refused nested protocol comes back as EINVAL or "invalid data", depending on the demuxer), so
    /// the log lines recorded with the call decide first where they are specific.
    init(classifying error: FFmpegError, timeout: Duration) {
        if let name = error.log.lazy.compactMap(Self.protocolRefused).first {
            self = .protocolNotAllowed(name)
            return
        }
        if let location = error.redirect, !Self.isWeb(location) {
            self = .redirectRefused(location)
            return
        }
        // EINVAL, like a bad option: only the log tells that the demuxer FFmpeg picked is not allowed.
        if error.log.contains(where: { $0.hasPrefix("Format not on whitelist") }) {
            self = .notMediaFile
            return
        }
        switch error.code {
        case marquee_averror(ENOENT): self = .noSuchFile
        // EPERM is not here: FFmpeg's demuxers use it for their own refusals ("Unsafe file name" from
        // the concat demuxer), which the generic case reports with the demuxer's words.
        case marquee_averror(EACCES): self = .permissionDenied
        case marquee_averror(EISDIR): self = .isDirectory
        case marquee_averror(ECONNREFUSED): self = .connectionRefused
        // EXIT is what every call returns once the interrupt callback fires, and Marquee's callback
        // fires only at the deadline (or on a cancel, which nobody waits to read about).
        case marquee_averror(ETIMEDOUT), marquee_averror_exit(): self = .timedOut(after: timeout)
        case marquee_averror_http_bad_request(): self = .httpStatus(400)
        case marquee_averror_http_unauthorized(): self = .httpStatus(401)
        case marquee_averror_http_forbidden(): self = .httpStatus(403)
        case marquee_averror_http_not_found(): self = .httpStatus(404)
        case marquee_averror_http_other_4xx(), marquee_averror_http_server_error():
            self = .httpStatus(error.log.lazy.compactMap(Self.httpStatus).first)
        case marquee_averror_invaliddata(): self = .invalidData(detail: error.log.last)
        case marquee_averror_eof(): self = .invalidData(detail: error.log.last ?? "the data ends early")
        default: self = .failed(operation: error.operation, message: error.message, detail: error.log.last)
        }
    }

    /// An absolute http(s) URL, or a relative one (a path on the same server).
    private static func isWeb(_ location: String) -> Bool {
        guard let scheme = URL(string: location)?.scheme?.lowercased() else { return true }
        return scheme == "http" || scheme == "https"
    }

    /// `Protocol 'file' not on whitelist 'http,https,tcp,tls'!` → `file`.
    private static func protocolRefused(in line: String) -> String? {
        guard line.hasPrefix("Protocol '"), line.contains("' not on whitelist") else { return nil }
        return line.dropFirst("Protocol '".count).prefix { $0 != "'" }.description
    }

    /// `HTTP error 410 Gone` → 410.
    private static func httpStatus(in line: String) -> Int? {
        guard let range = line.range(of: "HTTP error ") else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }
}
