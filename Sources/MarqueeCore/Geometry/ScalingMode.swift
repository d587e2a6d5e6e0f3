/// How a picture is fitted to the screen (MPMovieScalingMode, AVLayerVideoGravity).
public enum ScalingMode: String, CaseIterable, Sendable, Codable {
    /// Natural size, centred; cropped centrally where larger than the screen.
    case none
    /// Whole picture, aspect kept, letterboxed or pillarboxed. The default.
    case aspectFit
    /// Whole screen, aspect kept, the picture cropped centrally.
    case aspectFill
    /// Whole picture stretched over the whole screen.
    case fill

    public static let `default` = ScalingMode.aspectFit

    /// The order the cycleScalingMode command steps through.
    public var cycled: ScalingMode {
        switch self {
        case .none: .aspectFit
        case .aspectFit: .aspectFill
        case .aspectFill: .fill
        case .fill: .none
        }
    }
}
