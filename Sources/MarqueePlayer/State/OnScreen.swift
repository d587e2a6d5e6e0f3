import MarqueeCore

/// What the screen shows, kept across items on purpose: the last picture stays up through a
/// hand-over, a pause, a stall and a stop until something replaces it, and the labels are redrawn
/// over it while no frames flow. Nothing here belongs to one item, so nothing is reset with one.
struct OnScreen {
    typealias PlacedPicture = (picture: VideoPicture, placement: VideoPlacement)

    /// The last picture drawn and where, to draw it again under the labels while no frames flow.
    var lastDrawn: PlacedPicture?
    /// The picture drawn into the back buffer, shown by the next flip.
    private(set) var prepared: PlacedPicture?
    /// Where the last picture drawn went on the screen (its presentation size, for the status).
    private(set) var drawnRect: PixelRect?
    /// A redraw of the labels took the back buffer after a frame was drawn into it: draw it again.
    var backBufferReplaced = false
    /// The status card covers the screen (the next picture replaces it).
    var isStatusCard = false
    /// When the last frame was shown (real clock): frames flowing carry the labels themselves.
    private(set) var pictureShownAt: MediaTime?
    /// When the last picture went on screen, on the real clock (its frame event's time).
    private(set) var shownAt: MediaTime?
    /// When the last frame shown went on screen by CLOCK_REALTIME (frame-locked playback only).
    private(set) var shownAtWall: Double?
    /// The size of the last picture shown, and its pipeline's serial (`announceSizeChange`).
    var pictureSize: (serial: Int, size: PixelSize)?

    /// A picture was drawn into the back buffer, to go up with the next flip.
    mutating func drew(_ picture: VideoPicture, at placement: VideoPlacement) {
        drawnRect = placement.destination
        prepared = (picture, placement)
        backBufferReplaced = false
        isStatusCard = false
    }

    /// The back buffer was flipped to: what was drawn into it is what is up, since `now`.
    mutating func flipped(at now: MediaTime, wall: Double?) {
        if let prepared { lastDrawn = prepared }
        shownAt = now
        shownAtWall = wall
    }

    /// A frame went up (not a redraw of the labels alone).
    mutating func frameShown(at now: MediaTime) {
        pictureShownAt = now
    }
}
