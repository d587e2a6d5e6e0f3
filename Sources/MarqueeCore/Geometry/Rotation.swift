/// A clockwise quarter-turn: a source's rotation metadata or how a screen is mounted.
public enum Rotation: Int, CaseIterable, Sendable, Codable {
    case none = 0
    case clockwise90 = 90
    case upsideDown = 180
    case clockwise270 = 270

    /// Accepts any multiple of 90 degrees, negative ones included (metadata often says -90).
    public init?(degrees: Int) {
        let normalized = ((degrees % 360) + 360) % 360
        self.init(rawValue: normalized)
    }

    public var degrees: Int { rawValue }

    /// True when the turn swaps width and height.
    public var swapsAxes: Bool { self == .clockwise90 || self == .clockwise270 }

    public static func + (lhs: Rotation, rhs: Rotation) -> Rotation {
        Rotation(degrees: lhs.rawValue + rhs.rawValue)!
    }

    public var inverse: Rotation { Rotation(degrees: -rawValue)! }
}
