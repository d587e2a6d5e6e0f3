/// Memory an output scans out from (a DRM dumb buffer's mapping, a headless canvas), lent to
/// whoever draws a picture into it.
public protocol PixelStorage: AnyObject {
    /// Lends the pixels for the length of `body`; the view is never kept beyond it.
    func withPixelBuffer<Result>(_ body: (PixelBuffer) throws -> Result) rethrows -> Result
}

extension Canvas: PixelStorage {}
