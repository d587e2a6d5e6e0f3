import MarqueeCore

/// The engine's way into FFmpeg: opens a path, `file:`, `http:` or `https:` URL for decoding.
///
/// Failures are `PlaybackError`s naming the URL as the caller gave it and the cause alone
/// (`no such file`, `invalid data (moov atom not found)`,
/// `unsupported codec 'a64m' in the only video stream`), so the engine reports them as they are.
public struct FFmpegMediaOpener: MediaOpening {
    public let options: MediaOpenOptions

    public init(options: MediaOpenOptions = .init()) {
        self.options = options
    }

    /// Blocking (it reads the header and probes the streams): call it on a decode thread.
    public func open(_ url: String) throws -> MediaReader {
        try FFmpegMediaReader(url: url, options: options)
    }
}
