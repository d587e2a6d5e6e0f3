import CFFmpeg

/// One failed FFmpeg call: its C return code, which call it was, FFmpeg's wording for the code, and
/// what FFmpeg logged while the call ran.
///
/// The log matters because FFmpeg's codes are coarse: a truncated MP4 and a random file both come
/// back as "Invalid data found when processing input", and only the log says "moov atom not found".
/// Holds Swift values only, so it can cross the module's public edge inside `MediaOpenError`.
public struct FFmpegError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The negative AVERROR code the call returned.
    public let code: Int32
    /// The C function, with the argument that matters when there is one (`avcodec_open2(h264)`).
    public let operation: String
    /// `av_strerror`'s text for `code`.
    public let message: String
    /// Error and warning lines FFmpeg logged during the call, oldest first, without their newlines.
    public let log: [String]
    /// Where an HTTP server redirected the request, when it did (the last `Location` during the call).
    public let redirect: String?

    init(code: Int32, operation: String, log: [String] = [], redirect: String? = nil) {
        self.code = code
        self.operation = operation
        self.message = Self.text(for: code)
        self.log = log
        self.redirect = redirect
    }

    /// For allocations, which report failure with a null pointer instead of a code.
    static func outOfMemory(_ operation: String) -> FFmpegError {
        FFmpegError(code: marquee_averror(ENOMEM), operation: operation)
    }

    public var description: String {
        let said = log.last.map { " [\($0)]" } ?? ""
        return "\(operation) failed: \(message) (\(code))\(said)"
    }

    /// `av_strerror` for one code. It still writes a generic "Error number N occurred" when it does
    /// not know the code (and says so by returning a negative value), which is as readable as it gets.
    static func text(for code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: Int(marquee_av_error_max_string_size()))
        let status = av_strerror(code, &buffer, buffer.count)
        let text = String(nulTerminated: buffer)
        if status < 0 && text.isEmpty { return "unknown error \(code)" }
        return text
    }
}

/// FFmpeg's convention for `int`-returning calls: negative is an AVERROR code, anything else success.
/// Returns the non-negative result so callers that want it (a stream index, a byte count) keep it.
@discardableResult
func checked(_ code: Int32, _ operation: @autoclosure () -> String) throws(FFmpegError) -> Int32 {
    guard code >= 0 else { throw FFmpegError(code: code, operation: operation()) }
    return code
}

extension String {
    /// The text in a C character buffer that FFmpeg filled, up to its terminating NUL.
    init(nulTerminated buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
