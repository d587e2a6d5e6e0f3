/// Whether the display controller can turn the picture (a plane's `rotation` property) or the
/// player must turn it in software while scaling.
///
/// `display.rotation` turns the picture clockwise; DRM's `rotate-N` values turn the plane's
/// content counter-clockwise, so a clockwise quarter turn is `rotate-270`.
public enum PlaneRotationChoice: Equatable, Sendable {
    /// Set the plane's rotation property to the bit this enum value names; draw unrotated pictures
    /// into buffers of the portrait (or turned) size.
    case hardware(propertyValue: String)
    case software

    /// The DRM rotation value that shows a picture turned clockwise by `rotation`.
    public static func drmValueName(for rotation: Rotation) -> String {
        switch rotation {
        case .none: "rotate-0"
        case .clockwise90: "rotate-270"
        case .upsideDown: "rotate-180"
        case .clockwise270: "rotate-90"
        }
    }

    /// `supported`: the names the plane's rotation property offers (empty when it has none).
    public static func choose(_ rotation: Rotation, supported: [String]) -> PlaneRotationChoice {
        guard rotation != .none else { return .software }
        let name = drmValueName(for: rotation)
        return supported.contains(name) ? .hardware(propertyValue: name) : .software
    }
}
