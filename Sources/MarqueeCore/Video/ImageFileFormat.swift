/// The file a picture of the screen is sent as: JPEG, small enough for a fleet's dashboard to
/// take every few minutes from every screen, or PNG, every pixel exact.
public enum ImageFileFormat: String, Sendable, Equatable, CaseIterable, Codable {
    case jpeg
    case png

    /// `image/jpeg`, `image/png`.
    public var mediaType: String { "image/\(rawValue)" }
}
