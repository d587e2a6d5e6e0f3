/// One opened media item, read from one thread (the item's decode thread).
public protocol MediaReader: AnyObject {
    var asset: Asset { get }
    /// Positions reading at the keyframe at or before `time`, so that decoding forward reaches the
    /// frame on screen at `time`.
    func seek(to time: MediaTime) throws
    /// The next decoded picture in presentation order; nil at the end of the stream. Audio is skipped.
    func nextPicture() throws -> VideoPicture?
    /// The next picture or block of audio in the order the container interleaves them, audio
    /// converted (libswresample) to `audioFormat`; with nil, audio is skipped. nil at the end.
    func nextMedia(audioFormat: AudioFormat?) throws -> DecodedMedia?
}

/// Opens media for the engine; errors name the URL and the cause in one line.
public protocol MediaOpening: Sendable {
    func open(_ url: String) throws -> MediaReader
}
