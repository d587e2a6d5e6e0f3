/// A DRM choice that failed without a failing C call (no connected connector, no CRTC its
/// encoders can use, no primary plane, a property the driver does not offer, an output already
/// closed): there is no errno, only what was being chosen and why it could not be. Failed calls
/// are `SystemError`s. Swift values only, so it can leave the module.
public struct DRMRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done: `choosing a CRTC for HDMI-A-1`, `property DPMS of object 41`.
    public let operation: String
    public let reason: String

    init(operation: String, reason: String) {
        self.operation = operation
        self.reason = reason
    }

    /// `choosing a plane: no primary XRGB8888 plane for CRTC index 1`.
    public var description: String { "\(operation): \(reason)" }
}
