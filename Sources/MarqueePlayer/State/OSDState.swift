import MarqueeCore

/// The labels' side of the present thread: where they are drawn (the overlay plane, or blended
/// into each picture), what the plane was last handed, and whether they wait for a redraw.
/// The labels' own timing (shown, fading, gone) is the OnScreenDisplay's.
struct OSDState {
    /// The output's overlay plane, when the labels go there instead of being blended into each
    /// picture; chosen once at start, and nil from the moment the output refuses the plane.
    var plane: OverlayPlaneOutput?
    /// What was last handed to `plane` (nil: hidden), so an unchanged picture is not handed again.
    var staged: OverlayPicture?
    /// A command changed what the labels say: draw them even if no frame comes.
    var needsRedraw = false
    /// The picture in the back buffer has the labels as they were when it was drawn.
    var preparedHasLabels = false
    /// The last redraw for the labels alone (real clock), to pace fading at 25 Hz.
    var lastRedrawAt: MediaTime?
    /// Whole seconds the stall being waited out has lasted, once past `osd.stallAfter` (the labels
    /// say "Buffering N s"); nil when not stalled that long.
    var stallSeconds: Int?

    /// The output refused the plane: the labels are blended from now on.
    mutating func losePlane() {
        plane = nil
        staged = nil
    }
}
