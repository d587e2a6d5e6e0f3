import CFFmpeg
import MarqueeCore
@testable import MarqueeMedia
import Testing

/// The small pure parts of the decode path, one decision at a time.
@Suite struct DecodingHelpersTests {
    static let frame = MediaTime(1, per: 25)

    // MARK: FrameTimeline

    @Test func timesCountFromTheContainersStart() {
        var timeline = FrameTimeline(origin: MediaTime(7, per: 5), defaultFrameDuration: Self.frame)

        #expect(timeline.time(ofFrameStamped: MediaTime(7, per: 5), duration: nil) == .zero)
        #expect(timeline.time(ofFrameStamped: MediaTime(7, per: 5) + Self.frame, duration: nil) == Self.frame)
    }

    @Test func aFrameWithoutATimeFollowsItsPredecessor() {
        var timeline = FrameTimeline(origin: .zero, defaultFrameDuration: Self.frame)

        #expect(timeline.time(ofFrameStamped: nil, duration: nil) == .zero)
        #expect(timeline.time(ofFrameStamped: MediaTime(1, per: 5), duration: nil) == MediaTime(1, per: 5))
        #expect(timeline.time(ofFrameStamped: nil, duration: MediaTime(1, per: 50)) == MediaTime(11, per: 50))
        #expect(timeline.time(ofFrameStamped: nil, duration: nil) == MediaTime(11, per: 50) + Self.frame)
    }

    @Test func aTimeGoingBackwardsIsMovedOnInstead() {
        var timeline = FrameTimeline(origin: .zero, defaultFrameDuration: Self.frame)
        _ = timeline.time(ofFrameStamped: MediaTime(seconds: 3), duration: nil)

        #expect(timeline.time(ofFrameStamped: MediaTime(seconds: 1), duration: nil) == MediaTime(seconds: 3) + Self.frame)
        #expect(timeline.time(ofFrameStamped: MediaTime(seconds: 3) + Self.frame, duration: nil) == MediaTime(seconds: 3) + Self.frame * 2)

        timeline.restart()  // a seek: the next time is trusted again
        #expect(timeline.time(ofFrameStamped: MediaTime(seconds: 1), duration: nil) == MediaTime(seconds: 1))
    }

    // MARK: Crops

    @Test func aCropForOneSizeIsMappedOntoAFrameOfAnother() {
        let crop = PixelRect(x: 80, y: 60, width: 160, height: 120)

        #expect(PictureScaler.crop(crop, laidOutFor: PixelSize(width: 320, height: 240), on: PixelSize(width: 160, height: 120))
            == PixelRect(x: 40, y: 30, width: 80, height: 60))
        #expect(PictureScaler.crop(crop, laidOutFor: PixelSize(width: 320, height: 240), on: PixelSize(width: 320, height: 240)) == crop)
    }

    @Test func cropOriginsMoveOntoTheChromaGridAndPlanesStartThere() throws {
        let frame = try Frame()
        frame.pointer.pointee.width = 64
        frame.pointer.pointee.height = 48
        frame.pointer.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        try checked(av_frame_get_buffer(frame.pointer, 0), "av_frame_get_buffer")
        let data = withUnsafeBytes(of: frame.pointer.pointee.data) { Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)) }
        let strides = withUnsafeBytes(of: frame.pointer.pointee.linesize) { Array($0.bindMemory(to: Int32.self)) }

        let planes = try CroppedPlanes(UnsafePointer(frame.pointer), crop: PixelRect(x: 5, y: 3, width: 40, height: 30))

        // 4:2:0: the origin goes up and left to (4, 2); the far edges stay at 45 and 33.
        #expect(planes.crop == PixelRect(x: 4, y: 2, width: 41, height: 31))
        #expect(planes.planes[0] == UnsafePointer(data[0]! + 2 * Int(strides[0]) + 4))
        #expect(planes.planes[1] == UnsafePointer(data[1]! + 1 * Int(strides[1]) + 2))
        #expect(planes.planes[2] == UnsafePointer(data[2]! + 1 * Int(strides[2]) + 2))
    }

    @Test func packedAndPalettedPlanesMoveByWholePixels() throws {
        let rgb = try Self.frame(format: AV_PIX_FMT_RGB24, width: 10, height: 10)
        let rgbPlanes = try CroppedPlanes(UnsafePointer(rgb.pointer), crop: PixelRect(x: 3, y: 1, width: 5, height: 5))
        #expect(rgbPlanes.crop == PixelRect(x: 3, y: 1, width: 5, height: 5))  // no chroma grid
        #expect(rgbPlanes.planes[0] == UnsafePointer(rgb.pointer.pointee.data.0! + Int(rgb.pointer.pointee.linesize.0) + 9))

        let paletted = try Self.frame(format: AV_PIX_FMT_PAL8, width: 10, height: 10)
        let palettedPlanes = try CroppedPlanes(UnsafePointer(paletted.pointer), crop: PixelRect(x: 3, y: 1, width: 5, height: 5))
        #expect(palettedPlanes.planes[0] == UnsafePointer(paletted.pointer.pointee.data.0! + Int(paletted.pointer.pointee.linesize.0) + 3))
        #expect(palettedPlanes.planes[1] == UnsafePointer(paletted.pointer.pointee.data.1!))  // the palette stays whole
    }

    @Test func cropsAreClippedToTheFrame() throws {
        let frame = try Self.frame(format: AV_PIX_FMT_YUV420P, width: 16, height: 16)

        let planes = try CroppedPlanes(UnsafePointer(frame.pointer), crop: PixelRect(x: -4, y: 10, width: 40, height: 40))

        #expect(planes.crop == PixelRect(x: 0, y: 10, width: 16, height: 6))
    }

    // MARK: Quarter turns

    /// A 3x2 picture, pixels numbered 1...6 in reading order:  1 2 3 / 4 5 6.
    @Test(arguments: [
        (Rotation.none, [1, 2, 3, 4, 5, 6]),
        (.clockwise90, [4, 1, 5, 2, 6, 3]),  // 2 wide, 3 high: 4 1 / 5 2 / 6 3
        (.upsideDown, [6, 5, 4, 3, 2, 1]),
        (.clockwise270, [3, 6, 2, 5, 1, 4]),  // 3 6 / 2 5 / 1 4
    ])
    func quarterTurnsTurnClockwise(_ rotation: Rotation, _ expected: [UInt32]) {
        let size = PixelSize(width: 3, height: 2)
        let turned = size.rotated(by: rotation)
        let canvas = Canvas(size: PixelSize(width: turned.width + 2, height: turned.height + 2))
        let source: [UInt32] = [1, 2, 3, 4, 5, 6]

        canvas.withPixelBuffer { buffer in
            source.withUnsafeBufferPointer {
                QuarterTurn.copy($0, size: size, turned: rotation, into: buffer, at: PixelRect(x: 1, y: 1, width: turned.width, height: turned.height))
            }
        }

        var copied: [UInt32] = []
        for y in 1...turned.height {
            for x in 1...turned.width { copied.append(canvas.pixels[y * canvas.size.width + x]) }
        }
        #expect(copied == expected)
        #expect(canvas.pixels[0] == 0 && canvas.pixels.last == 0)  // nothing outside the destination
    }

    // MARK: Colour

    @Test func untaggedPicturesAreGuessedBySize() {
        #expect(FrameColorimetry.matrix(for: AVCOL_SPC_UNSPECIFIED, height: 576) == SWS_CS_ITU601)
        #expect(FrameColorimetry.matrix(for: AVCOL_SPC_UNSPECIFIED, height: 720) == SWS_CS_ITU709)
        #expect(FrameColorimetry.matrix(for: AVCOL_SPC_BT709, height: 480) == SWS_CS_ITU709)
        #expect(FrameColorimetry.matrix(for: AVCOL_SPC_SMPTE170M, height: 1080) == SWS_CS_ITU601)
    }

    static func frame(format: AVPixelFormat, width: Int32, height: Int32) throws -> Frame {
        let frame = try Frame()
        frame.pointer.pointee.width = width
        frame.pointer.pointee.height = height
        frame.pointer.pointee.format = format.rawValue
        try checked(av_frame_get_buffer(frame.pointer, 0), "av_frame_get_buffer")
        return frame
    }
}
