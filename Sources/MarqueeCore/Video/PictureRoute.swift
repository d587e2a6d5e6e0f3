/// How decoded pictures of one format reach an output: the answer of the format negotiation the
/// player runs when an item's first picture arrives and again whenever the format changes midway
/// (a stream going from 320x180 to 640x360, a decoder switching to another pixel layout).
public struct PictureRoute: Hashable, Sendable, CustomStringConvertible {
    public let picture: PictureFormat
    /// What the output's picture plane is given.
    public let scanout: ScanoutFormat

    /// The output's picture plane takes none of the formats pictures can be converted into: the
    /// one-line reason, naming both sides.
    public struct Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Chooses, among what the output says it takes (its preference first), the format the
    /// picture is converted into. Only a format the software converter writes can be chosen, so an
    /// output that lists nothing else is refused rather than given pixels it cannot read.
    public static func negotiate(_ picture: PictureFormat, outputTakes offered: [ScanoutFormat]) -> Result<PictureRoute, Refusal> {
        guard let chosen = offered.first(where: \.isConvertedInSoftware) else {
            let names = offered.isEmpty ? "nothing" : offered.map(\.rawValue).joined(separator: ", ")
            return .failure(Refusal(description: "the output's picture plane takes \(names); pictures (\(picture)) can only be converted into XRGB8888"))
        }
        return .success(PictureRoute(picture: picture, scanout: chosen))
    }

    /// "1920x1080 yuv420p (bt709, limited range) → XRGB8888".
    public var description: String {
        "\(picture) → \(scanout.rawValue)"
    }
}
