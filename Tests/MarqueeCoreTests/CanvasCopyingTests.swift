import Testing
import MarqueeCore

/// A screenshot copies a buffer across its stride and, for a plane that turns in hardware, turns
/// the copy as the plane turns the picture.
@Suite struct CanvasCopyingTests {
    /// A 3x2 picture whose rows are padded to 5 pixels (a driver's pitch), the padding poisoned:
    ///   1 2 3
    ///   4 5 6
    static func withPaddedBuffer<R>(_ body: (PixelBuffer) -> R) -> R {
        var storage: [UInt32] = [1, 2, 3, 0xDEAD, 0xDEAD,
                                 4, 5, 6, 0xDEAD, 0xDEAD]
        return storage.withUnsafeMutableBytes { bytes in
            body(PixelBuffer(baseAddress: bytes.baseAddress!, bytesPerRow: 5 * 4, size: PixelSize(width: 3, height: 2)))
        }
    }

    @Test(arguments: [
        // Turned clockwise, the top-left pixel (1) goes to the top-right for 90, the bottom-right
        // for 180, the bottom-left for 270.
        (Rotation.none, PixelSize(width: 3, height: 2), [UInt32]([1, 2, 3, 4, 5, 6])),
        (.clockwise90, PixelSize(width: 2, height: 3), [4, 1, 5, 2, 6, 3]),
        (.upsideDown, PixelSize(width: 3, height: 2), [6, 5, 4, 3, 2, 1]),
        (.clockwise270, PixelSize(width: 2, height: 3), [3, 6, 2, 5, 1, 4]),
    ])
    func copiesAcrossTheStrideAndTurnsClockwise(_ rotation: Rotation, _ size: PixelSize, _ pixels: [UInt32]) {
        let canvas = Self.withPaddedBuffer { Canvas(copying: $0, turnedClockwise: rotation) }

        #expect(canvas.size == size)
        #expect(canvas.pixels == pixels)
    }

    @Test func theCopyOwnsItsPixels() {
        var storage: [UInt32] = [7, 8]
        let canvas = storage.withUnsafeMutableBytes { bytes in
            Canvas(copying: PixelBuffer(baseAddress: bytes.baseAddress!, bytesPerRow: 8, size: PixelSize(width: 2, height: 1)))
        }
        storage[0] = 9

        #expect(canvas.pixels == [7, 8])
    }
}
