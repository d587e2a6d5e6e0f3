import MarqueeCore

/// The engine's way into FFmpeg: opens a path, `file:`, `http:` or `https:` URL for decoding.
///
/// Failures are `PlaybackError`s naming the URL as the caller gave it and the cause alone
/// (`no such file`, `invalid data (moov atom not found)`,
/// `unsupported codec 'a64m' in the only video stream`), so the engine reports them as they are.
public struct FFmpegMediaOpener: MediaOpening {
    public let options: MediaOpenOptions
    /// Hears what playing an item survived but an operator should know (an HLS segment missing
    /// on the server), one line each, credentials hidden; called on a reading thread.
    public let warn: @Sendable (String) -> Void

    public init(options: MediaOpenOptions = .init(), warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.options = options
        self.warn = warn
    }

    /// Blocking (it reads the header and probes the streams): call it on a decode thread.
    public func open(_ url: String) throws -> MediaReader {
        try FFmpegMediaReader(url: url, options: options, warn: warn)
    }
}
