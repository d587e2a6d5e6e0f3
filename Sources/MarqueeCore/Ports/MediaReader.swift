/// One opened media item, read from one thread (the item's decode thread).
public protocol MediaReader: AnyObject {
    var asset: Asset { get }
    /// Positions decoding early enough that what follows, once trimmed to `time` (VideoTrimmer,
    /// AudioTrimmer), is exactly what decoding from the start gives from `time` on: the video from
    /// a key frame at or before the frame on screen at `time`, the audio from its codec's pre-roll
    /// before `time` (a decoder restarted mid-stream lacks its history: MP3's bit reservoir, the
    /// MDCT overlap, Opus's convergence). The first pictures and audio that follow may therefore
    /// come before `time`, by as much as a GOP; the caller trims them.
    func seek(to time: MediaTime) throws
    /// The next decoded picture in presentation order; nil at the end of the stream. Audio is skipped.
    func nextPicture() throws -> VideoPicture?
    /// The next picture or block of audio in the order the container interleaves them, audio
    /// converted (libswresample) to `audioFormat`; with nil, audio is skipped. nil at the end.
    func nextMedia(audioFormat: AudioFormat?) throws -> DecodedMedia?
    /// How much of the source is fetched ahead of decoding. Safe to read from any thread: the
    /// present thread asks it while the decode thread reads.
    var readAheadStatus: ReadAheadStatus { get }
    /// Bytes taken from the source so far (the status's access log). Safe from any thread.
    var bytesRead: Int64 { get }
    /// Media time the source lost on the way and decoding closed up (an HLS segment the server
    /// would not give): what follows came that much earlier than stamped, and the media ends that
    /// much before its declared duration. Asked on the decode thread.
    var skippedMediaTime: MediaTime { get }
    /// Whether the source is no longer what was opened: a local file copied over, cut or replaced
    /// since. Looks now, so it may block as a stat of the path can: ask on the decode thread.
    var hasSourceChanged: Bool { get }
}

extension MediaReader {
    /// Readers without a read-ahead of their own (local files, test media) never run dry.
    public var readAheadStatus: ReadAheadStatus { .local }
    /// Readers that do not count what they read.
    public var bytesRead: Int64 { 0 }
    /// Readers that never skip anything.
    public var skippedMediaTime: MediaTime { .zero }
    /// Readers of sources that cannot change under them (test media, remote sources) never see it.
    public var hasSourceChanged: Bool { false }
}

/// Opens media for the engine; errors name the URL and the cause in one line.
public protocol MediaOpening: Sendable {
    func open(_ url: String) throws -> MediaReader
}
