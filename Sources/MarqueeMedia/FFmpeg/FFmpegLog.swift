import CFFmpeg
import Foundation

/// Keeps FFmpeg's process-wide log off the console, and lets one thread hear what FFmpeg says during
/// a call.
///
/// An operator should read one clear line per failed item, not FFmpeg's chatter, so nothing is ever
/// printed. But the chatter often holds the real cause ("moov atom not found", "Protocol 'file' not on
/// whitelist"), so `recording` collects warnings and errors logged on the calling thread while its
/// body runs. Per thread, because demux and decode threads of different items run concurrently and
/// must not see each other's lines.
enum FFmpegLog {
    /// Lines less severe than this are never collected: FFmpeg's info and debug output is noise here.
    static let collectedLevel = AV_LOG_WARNING

    /// Installs the callback once per process; every entry point into FFmpeg calls `FFmpegLibrary.prepare()`,
    /// which calls this.
    static func install() {
        av_log_set_level(collectedLevel)
        av_log_set_callback { _, level, format, arguments in
            guard let arguments else { return }
            FFmpegLog.receive(level: level, format: format, arguments: arguments)
        }
    }

    /// Runs `body`, collecting what FFmpeg logs on this thread meanwhile. Nested recordings each get
    /// their own lines; the outer one resumes afterwards.
    static func recording<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> (result: T, log: [String]) {
        let (result, transcript) = try transcribing(body)
        return (result, transcript.finishedLines())
    }

    /// `recording`, plus the last HTTP redirect target (`Location` header) a request made meanwhile
    /// was answered with. FFmpeg refuses a redirect to another protocol with a bare EINVAL and logs
    /// nothing about it, so the header, logged at trace level, is the only trace of what was refused.
    static func recordingRedirects<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> (result: T, log: [String], redirect: String?) {
        let (result, transcript) = try transcribing(body)
        return (result, transcript.finishedLines(), transcript.redirect)
    }

    /// `recording`, plus the trail an HLS demuxer leaves: its segment requests (logged at verbose
    /// level, `HLS request for url '...'`) among the warnings and errors, in the order they came, so
    /// a `Failed to open segment` line can be matched with the URL it failed on. `onLine` is told
    /// each line as soon as it is complete, while the call still runs: what FFmpeg says can be
    /// reason to interrupt what it does.
    static func recordingSegmentTrail<T, E: Error>(watching onLine: ((String) -> Void)? = nil,
                                                   _ body: () throws(E) -> T) throws(E) -> (result: T, log: [String], trail: [String]) {
        let (result, transcript) = try transcribing(onLine: onLine, body)
        return (result, transcript.finishedLines(), transcript.trail)
    }

    /// `recording`, telling `onLine` each line as soon as it is complete, while the call still runs.
    static func recording<T, E: Error>(watching onLine: @escaping (String) -> Void,
                                       _ body: () throws(E) -> T) throws(E) -> (result: T, log: [String]) {
        let (result, transcript) = try transcribing(onLine: onLine, body)
        return (result, transcript.finishedLines())
    }

    private static func transcribing<T, E: Error>(onLine: ((String) -> Void)? = nil,
                                                  _ body: () throws(E) -> T) throws(E) -> (T, Transcript) {
        let transcript = Transcript()
        transcript.onLine = onLine
        let previous = pthread_getspecific(threadKey)
        setThreadTranscript(Unmanaged.passUnretained(transcript).toOpaque())
        defer { setThreadTranscript(previous) }
        return (try body(), transcript)
    }

    /// Runs one `int`-returning call, collecting the log, and throws when the code is negative.
    @discardableResult
    static func call(_ operation: @autoclosure () -> String, _ body: () -> Int32) throws(FFmpegError) -> Int32 {
        let (code, log) = recording(body)
        guard code >= 0 else { throw FFmpegError(code: code, operation: operation(), log: log) }
        return code
    }

    /// Lines FFmpeg logged on one thread. Only that thread touches it, so it needs no lock.
    final class Transcript {
        private(set) var lines: [String] = []
        /// The last `Location` an HTTP response carried.
        private(set) var redirect: String?
        /// Finished lines and HLS segment requests, in order (see `recordingSegmentTrail`).
        private(set) var trail: [String] = []
        private var partial = ""
        /// Told each line as it completes.
        var onLine: ((String) -> Void)?

        /// Keeps `header='Location: URL'` (http.c's trace of each response header) as `URL`.
        func noteHeader(_ text: String) {
            let prefix = "header='location:"
            guard text.lowercased().hasPrefix(prefix) else { return }
            let value = text.dropFirst(prefix.count).trimmingCharacters(in: .whitespacesAndNewlines)
            redirect = value.hasSuffix("'") ? String(value.dropLast()) : value
        }

        func append(_ text: String) {
            // FFmpeg builds some lines from several calls; a line is done at its newline.
            partial += text
            while let newline = partial.firstIndex(of: "\n") {
                let line = partial[..<newline].trimmingCharacters(in: .whitespacesAndNewlines)
                if !line.isEmpty {
                    lines.append(line)
                    trail.append(line)
                    onLine?(line)
                }
                partial = String(partial[partial.index(after: newline)...])
            }
        }

        func noteSegmentRequest(_ text: String) {
            trail.append(text.trimmingCharacters(in: .whitespacesAndNewlines))
        }

        func finishedLines() -> [String] {
            let rest = partial.trimmingCharacters(in: .whitespacesAndNewlines)
            return rest.isEmpty ? lines : lines + [rest]
        }
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed (\(status)): the process is out of thread keys")
        return key
    }()

    /// pthread_setspecific fails only for a key that was never created or when out of memory; the key
    /// is created once above, so a failure is a broken process, not a media problem.
    private static func setThreadTranscript(_ pointer: UnsafeMutableRawPointer?) {
        let status = pthread_setspecific(threadKey, pointer)
        precondition(status == 0, "pthread_setspecific failed (\(status))")
    }

    private static func receive(level: Int32, format: UnsafePointer<CChar>?, arguments: CVaListPointer) {
        // The low byte is the level; a few callers put colour hints above it.
        let level = level & 0xFF
        guard level <= collectedLevel || level == AV_LOG_TRACE || level == AV_LOG_VERBOSE, let format,
              let opaque = pthread_getspecific(threadKey) else { return }
        let transcript = Unmanaged<Transcript>.fromOpaque(opaque).takeUnretainedValue()
        if level <= collectedLevel {
            render(format, arguments).map(transcript.append)
        } else if level == AV_LOG_VERBOSE {
            // Only hls.c's segment requests, for the same reason.
            if strncmp(format, segmentRequest, segmentRequest.utf8.count) == 0 {
                render(format, arguments).map(transcript.noteSegmentRequest)
            }
        } else if strncmp(format, headerTrace, headerTrace.utf8.count) == 0 {
            // Only http.c's header lines: rendering every trace line would slow decoding down.
            render(format, arguments).map(transcript.noteHeader)
        }
    }

    /// The format hls.c logs each segment request with (`HLS request for url '%s', offset ...`).
    static let segmentRequest = "HLS request for url '"

    /// The format http.c traces each response header with.
    private static let headerTrace = "header='"

    private static func render(_ format: UnsafePointer<CChar>, _ arguments: CVaListPointer) -> String? {
        var buffer = [CChar](repeating: 0, count: 1024)
        // A negative result means the format could not be rendered; a clipped line is still useful.
        guard vsnprintf(&buffer, buffer.count, format, arguments) >= 0 else { return nil }
        return String(nulTerminated: buffer)
    }
}
