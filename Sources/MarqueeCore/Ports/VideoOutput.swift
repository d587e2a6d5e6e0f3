/// Where pictures are shown: a KMS/DRM screen or the headless canvas.
///
/// Showing a picture takes two steps so that drawing, which can take most of a frame slot, happens
/// before the frame is due and only the flip happens at its due time: a picture reaches the screen
/// when the clock says, not a draw's length later (which would put it behind its sound).
public protocol VideoOutput: AnyObject {
    /// The framebuffer's size as scanned out.
    var screenSize: PixelSize { get }
    /// What the picture plane takes, in the output's order of preference: the player negotiates
    /// each picture format against it (`PictureRoute.negotiate`) before drawing.
    var pictureFormats: [ScanoutFormat] { get }
    /// Lends the back buffer to `draw` without showing it. Blocks the present thread until that
    /// buffer is free (its last flip completed); never more than one flip in flight. Drawing
    /// again before `showPrepared` replaces the picture.
    func prepare(_ draw: (PixelBuffer) throws -> Void) throws
    /// Shows what the last `prepare` drew (a page flip on DRM); nothing when nothing is prepared.
    func showPrepared() throws
    /// A copy of the picture on screen now, as the viewer sees it (after any hardware rotation),
    /// XRGB8888; nil when nothing is on screen or the output cannot read it back.
    ///
    /// Called on the present thread only, between frames (never while `prepare` or `showPrepared`
    /// runs), so an output may read its front buffer as it is.
    func screenshot() throws -> Canvas?
}

extension VideoOutput {
    /// Draws and shows at once.
    public func present(_ draw: (PixelBuffer) throws -> Void) throws {
        try prepare(draw)
        try showPrepared()
    }

    /// Outputs that draw in software take XRGB8888.
    public var pictureFormats: [ScanoutFormat] { [.xrgb8888] }

    /// Outputs that cannot read their picture back (test doubles) have no screenshot.
    public func screenshot() throws -> Canvas? { nil }
}
