import MarqueeCore
import Testing

/// The format negotiation: a picture goes to the first format the output takes that pictures can
/// be converted into, and an output taking none of those is refused with both sides named.
@Suite struct PictureRouteTests {
    static let hd = PictureFormat(pixelFormat: "yuv420p", size: PixelSize(width: 1920, height: 1080), range: .limited, matrix: "bt709")

    @Test func aYUVPictureIsConvertedIntoXRGB() throws {
        let route = try PictureRoute.negotiate(Self.hd, outputTakes: [.xrgb8888]).get()

        #expect(route.scanout == .xrgb8888)
        #expect(route.picture == Self.hd)
        #expect("\(route)" == "1920x1080 yuv420p (bt709, limited range) → XRGB8888")
    }

    @Test func theOutputsPreferenceIsFollowedAmongWhatCanBeWritten() throws {
        let route = try PictureRoute.negotiate(Self.hd, outputTakes: [.argb8888, .xrgb8888]).get()

        #expect(route.scanout == .xrgb8888, "ARGB is for overlay planes: the picture is opaque")
    }

    @Test func anOutputTakingNothingConvertibleIsRefused() {
        for offered: [ScanoutFormat] in [[], [.argb8888]] {
            guard case .failure(let refusal) = PictureRoute.negotiate(Self.hd, outputTakes: offered) else {
                Issue.record("\(offered) was accepted")
                continue
            }
            #expect(refusal.description.contains("1920x1080 yuv420p"))
            #expect(refusal.description.contains(offered.isEmpty ? "takes nothing" : "takes ARGB8888"))
        }
    }

    @Test func theLogNamesWhatTheStreamSays() {
        let untagged = PictureFormat(pixelFormat: "yuvj420p", size: PixelSize(width: 64, height: 36), range: .full, matrix: nil)
        let bare = PictureFormat(pixelFormat: "rgb24", size: PixelSize(width: 8, height: 8), range: .unspecified, matrix: nil)

        #expect("\(untagged)" == "64x36 yuvj420p (full range)")
        #expect("\(bare)" == "8x8 rgb24")
    }
}
