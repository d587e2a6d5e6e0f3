import Foundation
import MarqueeCore
import MarqueeMedia
import Testing

/// Colours come out right: each picture is converted with its own matrix (BT.601, BT.709) and range
/// (limited video levels or full), as tagged, else as guessed from its size, as players do.
@Suite struct ColourConversionTests {
    static let left = RGBColor(red: 220, green: 40, blue: 40)
    static let right = RGBColor(red: 230, green: 200, blue: 40)
    /// Far below the 13 to 19 steps a wrong matrix or range costs these colours.
    static let tolerance = 5

    struct Example: CustomTestStringConvertible, Sendable {
        let recipe: FixtureMedia.Recipe
        let label: String
        var testDescription: String { label }
    }

    @Test(arguments: [
        Example(recipe: .coloursBT601Untagged, label: "BT.601 limited, untagged SD"),
        Example(recipe: .coloursBT709Tagged720p, label: "BT.709 limited, tagged 720p"),
        Example(recipe: .coloursBT709TaggedSmall, label: "BT.709 limited, tagged at SD size"),
        Example(recipe: .coloursBT709Untagged720p, label: "BT.709 limited, untagged 720p"),
        Example(recipe: .coloursFullRange, label: "BT.601 full range, tagged (VP9)"),
        Example(recipe: .coloursJPEG, label: "JPEG (yuvj420p, full range)"),
    ])
    func colorsMatchTheSource(_ example: Example) throws {
        let reader = try FFmpegMediaOpener().open(FixtureMedia.path(example.recipe))
        let codedSize = try #require(reader.asset.codedSize)
        let picture = try #require(try reader.nextPicture())

        let canvas = try picture.canvas(size: PixelSize(width: 320, height: 240), codedSize: codedSize)

        let leftColour = canvas[80, 120], rightColour = canvas[240, 120]
        #expect(leftColour.distance(to: Self.left) <= Self.tolerance, "left half is \(leftColour), expected \(Self.left)")
        #expect(rightColour.distance(to: Self.right) <= Self.tolerance, "right half is \(rightColour), expected \(Self.right)")
    }
}
