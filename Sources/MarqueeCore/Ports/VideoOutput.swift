/// Where pictures are shown: a KMS/DRM screen or the headless canvas.
public protocol VideoOutput: AnyObject {
    /// The framebuffer's size as scanned out.
    var screenSize: PixelSize { get }
    /// Lends a back buffer to `draw`, then shows it (a page flip on DRM). Blocks the present thread
    /// until the buffer can be reused; never more than one flip in flight.
    func present(_ draw: (PixelBuffer) throws -> Void) throws
}
