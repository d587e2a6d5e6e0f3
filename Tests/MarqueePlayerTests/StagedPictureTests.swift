import Foundation
import Synchronization
import MarqueeCore
import Testing
@testable import MarqueePlayer

/// The decode thread converts a staged picture at most once and only before the present thread
/// takes it; the present thread gets the buffer only when it was converted for the placement it
/// draws with, and waits for a conversion under way rather than converting again.
@Suite struct StagedPictureTests {
    static let size = PixelSize(width: 4, height: 2)
    static let placement = VideoPlacement(sourceCrop: PixelRect(size: size), destination: PixelRect(size: size), rotation: .none)
    static let red = RGBColor(red: 255, green: 0, blue: 0)

    /// Paints the whole destination one colour; optionally waits for a go-ahead first.
    final class FilledPicture: VideoPicture, @unchecked Sendable {
        let pts = MediaTime.zero
        let color: RGBColor
        let started = DispatchSemaphore(value: 0)
        let goAhead: DispatchSemaphore?

        init(_ color: RGBColor, waitsForGoAhead: Bool = false) {
            self.color = color
            goAhead = waitsForGoAhead ? DispatchSemaphore(value: 0) : nil
        }

        var pictureSize: PixelSize? { StagedPictureTests.size }

        func draw(into buffer: PixelBuffer, placement: VideoPlacement, background: RGBColor) throws {
            started.signal()
            goAhead?.wait()
            buffer.fill(placement.destination, with: color)
        }
    }

    static func pool(_ count: Int = 3) -> OutputBufferPool {
        OutputBufferPool((0..<count).map { _ in Canvas(size: size) })
    }

    private func lease(_ pool: OutputBufferPool) throws -> OutputBufferLease { try #require(pool.lendForConversion()) }

    @Test func aPictureConvertedForThePlacementIsHandedOverConverted() throws {
        let pool = Self.pool()
        let staged = StagedPicture(FilledPicture(Self.red))

        #expect(staged.convert(into: try lease(pool), placement: Self.placement, background: .black))
        let taken = try #require(staged.take(for: Self.placement))

        #expect((pool.storage(of: taken) as? Canvas)?[3, 1] == Self.red)
        #expect(!staged.isWaiting)
    }

    @Test func aPictureConvertedForAnotherPlacementIsDrawnAgainAndItsBufferFreed() throws {
        let pool = Self.pool()
        let staged = StagedPicture(FilledPicture(Self.red))
        staged.convert(into: try lease(pool), placement: Self.placement, background: .black)
        var moved = Self.placement
        moved.destination = PixelRect(x: 1, y: 0, width: 3, height: 2)

        #expect(staged.take(for: moved) == nil)
        #expect(pool.freeCount == 3)
    }

    @Test func aPictureTakenBeforeItsConversionIsLeftToThePresentThread() throws {
        let pool = Self.pool()
        let staged = StagedPicture(FilledPicture(Self.red))

        #expect(staged.take(for: Self.placement) == nil)
        #expect(!staged.convert(into: try lease(pool), placement: Self.placement, background: .black))
        #expect(pool.freeCount == 3, "the lease came straight back")
    }

    @Test func takingWaitsForAConversionUnderWay() throws {
        let pool = Self.pool()
        let picture = FilledPicture(Self.red, waitsForGoAhead: true)
        let staged = StagedPicture(picture)
        let lease = try lease(pool)
        let converting = Thread { staged.convert(into: lease, placement: Self.placement, background: .black) }
        converting.start()
        #expect(picture.started.wait(timeout: .now() + 5) == .success)
        let taken = Mutex<OutputBufferLease?>(nil)
        let tookIt = DispatchSemaphore(value: 0)
        Thread {
            let lease = staged.take(for: Self.placement)
            taken.withLock { $0 = lease }
            tookIt.signal()
        }.start()

        #expect(tookIt.wait(timeout: .now() + 0.2) == .timedOut, "the present thread waits while the decode thread writes")
        picture.goAhead?.signal()
        #expect(tookIt.wait(timeout: .now() + 5) == .success)
        #expect(taken.withLock { $0 != nil }, "and then takes what was converted")
    }

    @Test func theConversionTakesTheOldestWaitingPicturesWhileBuffersAreLent() throws {
        let pool = Self.pool(3)
        let pictures = (0..<3).map { _ in StagedPicture(FilledPicture(Self.red)) }
        let layout = PictureLayout(asset: Asset(url: "test", duration: nil, naturalSize: Self.size, codedSize: Self.size,
                                                sampleAspectRatio: .square, rotation: .none, mediaTypes: [.video], tracks: [],
                                                isSeekable: true, isStillImage: false, containerName: "test"),
                                   screenSize: Self.size, displayRotation: .none, scalingMode: .fill)
        let conversion = PictureConversion(pool: pool, layout: layout, background: .black)

        let converted = conversion.convert { pictures.first { $0.isWaiting } }

        #expect(converted == 2, "three buffers, one kept for the output")
        #expect(!pictures[0].isWaiting && !pictures[1].isWaiting && pictures[2].isWaiting)
        let placement = try #require(layout.placement(for: pictures[0]))
        #expect(pictures[0].take(for: placement) != nil)
    }
}
