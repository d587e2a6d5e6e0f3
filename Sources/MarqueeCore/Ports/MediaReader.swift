/// One opened media item, read from one thread (the item's decode thread).
public protocol MediaReader: AnyObject {
    var asset: Asset { get }
    /// Positions reading at the keyframe at or before `time`, so that decoding forward reaches the
    /// frame on screen at `time`.
    func seek(to time: MediaTime) throws
    /// The next decoded picture in presentation order; nil at the end of the stream.
    func nextPicture() throws -> VideoPicture?
}

/// Opens media for the engine; errors name the URL and the cause in one line.
public protocol MediaOpening: Sendable {
    func open(_ url: String) throws -> MediaReader
}
