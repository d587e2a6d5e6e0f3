/// One mode a connector offers, as the mode chooser sees it: no DRM type, so the choice is testable
/// on machines without a display.
public struct DisplayMode: Hashable, Sendable, CustomStringConvertible {
    public var size: PixelSize
    /// In Hz, computed from the pixel clock and totals: real modes run at rates like 59.940.
    public var refreshRate: Double
    /// The sink flagged it as its native mode (DRM_MODE_TYPE_PREFERRED).
    public var isPreferred: Bool

    public init(size: PixelSize, refreshRate: Double, isPreferred: Bool = false) {
        self.size = size
        self.refreshRate = refreshRate
        self.isPreferred = isPreferred
    }

    public var description: String {
        let rate = (refreshRate * 100).rounded() / 100
        return "\(size)@\(rate == rate.rounded() ? String(Int(rate)) : String(rate))"
    }
}

/// What the config asks for (`display.mode`), without MarqueeConfig's spelling rules.
public enum DisplayModeRequest: Hashable, Sendable, CustomStringConvertible {
    case preferred
    /// `refreshRate` nil takes the highest rate offered at that size.
    case size(PixelSize, refreshRate: Double?)

    public var description: String {
        switch self {
        case .preferred: "preferred"
        case .size(let size, nil): "\(size)"
        case .size(let size, let rate?): "\(size)@\(rate)"
        }
    }
}
