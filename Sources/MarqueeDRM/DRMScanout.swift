import MarqueeCore

/// How buffers reach the screen: atomic commits, or the legacy SetCrtc and PageFlip calls for
/// drivers without atomic support.
protocol DRMScanout: AnyObject {
    /// "atomic" or "legacy", for the log line.
    var kind: String { get }
    /// The modeset: the connector, mode and first buffer, blocking until it is on screen.
    func modeset(_ buffer: DRMDumbBuffer) throws
    /// Queues a flip to `buffer` with a completion event; returns at once.
    func flip(to buffer: DRMDumbBuffer) throws
    /// Display power: the CRTC inactive (off) or active again, its mode, connector and plane kept;
    /// blocks until done.
    func setActive(_ active: Bool) throws
    /// The OSD's overlay plane, changed in the same commits as the flips; nil for legacy calls,
    /// which have no planes.
    var overlay: DRMOverlayPlane? { get }
}
