/// An output with a plane of its own above the picture (a DRM overlay plane taking ARGB8888): the
/// OSD goes there instead of being blended into every frame after scaling. An optional capability:
/// the player asks `video as? OverlayPlaneOutput` once at start and blends when there is none.
///
/// The plane changes with the picture: what is staged goes on screen in the same commit as the
/// next `showPrepared`'s flip, so labels and frame change together and no flip is added for them.
public protocol OverlayPlaneOutput: VideoOutput {
    /// Whether there is a plane to use, and which: decided when the output opened.
    var overlayPlane: OverlayPlaneAvailability { get }
    /// Hands the output what the plane shows from the next `showPrepared` on; nil hides it. Until
    /// then the plane keeps showing what it showed, and staging again replaces what was staged.
    ///
    /// Called on the present thread, never from inside `prepare`'s closure. Like `prepare`, it may
    /// block until the last flip completed (the plane's back buffer is free then). Returns false
    /// when the output cannot show it after all (the driver refused the plane): the plane is hidden
    /// and stays unused from then on, and the caller blends the picture itself instead.
    func stageOverlay(_ picture: OverlayPicture?) -> Bool
}

/// The answer to "is there an overlay plane?", with what the log says either way.
public enum OverlayPlaneAvailability: Sendable, Equatable {
    /// The plane, as the log names it: "overlay plane 42 (ARGB8888)".
    case available(String)
    /// Why there is none: "no ARGB overlay plane on this CRTC".
    case unavailable(String)
}
