import MarqueeCore

/// Why a media URL could not be opened, as one line naming the URL and the cause:
/// `media/trunc.mp4: invalid data (moov atom not found)`.
public struct MediaOpenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path or URL, as the caller named it.
    public let url: String
    public let reason: Reason
    /// The FFmpeg call that failed, with its code and log, when the cause came from FFmpeg.
    public let underlying: FFmpegError?

    public init(url: String, reason: Reason, underlying: FFmpegError? = nil) {
        self.url = url
        self.reason = reason
        self.underlying = underlying
    }

    /// A password in the URL, or in FFmpeg's words about it, is hidden.
    public var description: String { CredentialRedaction.redacted("\(url): \(reason)") }

    /// The same error naming the media as the user wrote it (the CLI resolves `media/a.mp4` to an
    /// absolute path to open it, but reports it as typed).
    public func naming(_ url: String) -> MediaOpenError {
        MediaOpenError(url: url, reason: reason, underlying: underlying)
    }

    public enum Reason: Sendable, Equatable, CustomStringConvertible {
        /// Refused before FFmpeg saw it: only paths, `file:`, `http:` and `https:` are opened.
        case unsupportedScheme(String)
        case invalidURL
        case noSuchFile
        case isDirectory
        /// A FIFO, device or socket (`kind` says which, with its article): refused unopened, since
        /// opening or reading one can block for good.
        case notRegularFile(String)
        case permissionDenied
        case emptyFile
        /// FFmpeg could not make sense of the bytes; `detail` is what its demuxer said, when it said something.
        case invalidData(detail: String?)
        /// FFmpeg read the bytes as a format that is not audio, video or a picture (a text file as
        /// `tty`, random bytes as `bintext`): outside `DemuxerWhitelist`.
        case notMediaFile
        /// The container opened, declares no length and holds no stream at all: a clip written with
        /// no frames (`ffmpeg -t 0`), whose empty tracks FFmpeg drops.
        case noFrames
        /// The container opened but holds no audio or video stream.
        case noMediaStreams
        /// Audio or video streams exist but this FFmpeg build decodes none of them.
        case unsupportedCodecs([UnsupportedStream])
        /// The server answered with an HTTP error status (`nil` when FFmpeg did not say which).
        case httpStatus(Int?)
        case connectionRefused
        case timedOut(after: Duration)
        /// The media asked FFmpeg to open a URL with a protocol outside the source's whitelist: a
        /// remote playlist pointing at `file:`, a local one pointing at `http:`, a redirect to `file:`.
        case protocolNotAllowed(String)
        /// The server redirected to a URL of another protocol than http(s) (`file:`, `ftp:`, `rtsp:`),
        /// which FFmpeg does not follow.
        case redirectRefused(String)
        /// A still with more pixels than `display.maxImagePixels` (its size, when known), refused
        /// before its picture is decoded.
        case imageTooLarge(size: PixelSize?, limit: ImagePixelLimit)
        /// Anything else FFmpeg reported.
        case failed(operation: String, message: String, detail: String?)

        public var description: String {
            switch self {
            case .unsupportedScheme(let scheme):
                "unsupported URL scheme '\(scheme)' (use a file path, http or https)"
            case .invalidURL:
                "invalid URL"
            case .noSuchFile:
                "no such file"
            case .isDirectory:
                "is a directory, not a media file"
            case .notRegularFile(let kind):
                "not a regular file (\(kind))"
            case .permissionDenied:
                "permission denied"
            case .emptyFile:
                "the file is empty"
            case .invalidData(let detail):
                "invalid data (\(detail ?? "not a media format FFmpeg recognises"))"
            case .notMediaFile:
                "not a media file"
            case .noFrames:
                "no frames (the media is 0 s long)"
            case .noMediaStreams:
                "no audio or video stream"
            case .unsupportedCodecs(let streams):
                Self.describe(streams)
            case .httpStatus(let status):
                "server refused (HTTP \(status.map(String.init) ?? "error"))"
            case .connectionRefused:
                "connection refused"
            case .timedOut(let timeout):
                "timed out after \(Self.seconds(timeout)) s"
            case .protocolNotAllowed(let name):
                "refused to open a '\(name)' URL the media points to (protocol not allowed for this source)"
            case .redirectRefused(let location):
                "server redirected to a refused protocol (\(location))"
            case .imageTooLarge(let size, let limit):
                "image too large: \(size.map { "\($0.width)x\($0.height)" } ?? "more than \(limit)") pixels; display.maxImagePixels is \(limit)"
            case .failed(let operation, let message, let detail):
                "\(operation) failed: \(message)" + (detail.map { " (\($0))" } ?? "")
            }
        }

        /// `unsupported codec 'a64m' in the only video stream`, or a list when there are several.
        private static func describe(_ streams: [UnsupportedStream]) -> String {
            guard streams.count > 1 else {
                let only = streams.first
                return "unsupported codec '\(only?.codec ?? "unknown")' in the only \(only?.mediaType.rawValue ?? "media") stream"
            }
            let list = streams.map { "'\($0.codec)' (\($0.mediaType.rawValue) stream \($0.index))" }
            return "unsupported codecs in every audio and video stream: " + list.joined(separator: ", ")
        }

        /// `2`, `0.5`, `1.25`: whole seconds without a fraction, others to the millisecond.
        private static func seconds(_ duration: Duration) -> String {
            let (seconds, attoseconds) = duration.components
            let milliseconds = attoseconds / 1_000_000_000_000_000
            guard milliseconds != 0 else { return "\(seconds)" }
            var fraction = String(1000 + milliseconds).dropFirst()
            while fraction.last == "0" { fraction = fraction.dropLast() }
            return "\(seconds).\(fraction)"
        }
    }

    /// One audio or video stream whose codec this FFmpeg cannot decode.
    public struct UnsupportedStream: Sendable, Equatable {
        public let index: Int
        public let mediaType: MediaType
        /// FFmpeg's codec name, else the container's codec tag (`a64m`), else `unknown`.
        public let codec: String

        public init(index: Int, mediaType: MediaType, codec: String) {
            self.index = index
            self.mediaType = mediaType
            self.codec = codec
        }
    }
}
