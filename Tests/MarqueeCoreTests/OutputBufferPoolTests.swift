import MarqueeCore
import Synchronization
import Testing

/// The output's buffers, lent to the decode thread and to the output: a buffer comes back when its
/// lease goes, and the decode thread never takes the reserve the output draws into itself.
@Suite struct OutputBufferPoolTests {
    private static func pool(_ count: Int, reserve: Int = 1) -> OutputBufferPool {
        OutputBufferPool((0..<count).map { _ in Canvas(size: PixelSize(width: 2, height: 2)) }, reserve: reserve)
    }

    @Test func theDecodeThreadLeavesTheReserveToTheOutput() {
        let pool = Self.pool(4)
        let front = pool.lendToOutput()
        let converted = [pool.lendForConversion(), pool.lendForConversion()]

        #expect(front != nil && converted.allSatisfy { $0 != nil })
        #expect(pool.lendForConversion() == nil, "the last free buffer is the output's")
        let drawn = pool.lendToOutput()
        #expect(drawn != nil, "the output still has one to draw into")
        #expect(pool.lendToOutput() == nil)
        _ = (front, converted, drawn)
    }

    @Test func aReleasedLeaseGivesItsBufferBackAndSaysSo() {
        let pool = Self.pool(2)
        let givenBack = Atomic<Int>(0)
        pool.whenGivenBack { givenBack.add(1, ordering: .relaxed) }
        var lease = pool.lendForConversion()
        #expect(lease != nil && pool.freeCount == 1)
        #expect(pool.lendForConversion() == nil)

        lease = nil

        #expect(pool.freeCount == 2)
        #expect(givenBack.load(ordering: .relaxed) == 1)
        #expect(pool.lendForConversion() != nil)
        _ = lease
    }

    @Test func eachLeaseHasItsOwnBuffer() throws {
        let pool = Self.pool(3, reserve: 0)
        let leases = try (0..<3).map { _ in try #require(pool.lendToOutput()) }

        #expect(Set(leases.map(\.slot)) == [0, 1, 2])
        leases[0].withPixelBuffer { $0.fill(PixelRect(x: 0, y: 0, width: 2, height: 2), with: RGBColor(red: 9, green: 0, blue: 0)) }
        #expect(leases[1].withPixelBuffer { PixelBuffer.read($0, x: 1, y: 1) } == RGBColor.black.xrgb8888)
        #expect(leases[0].withPixelBuffer { PixelBuffer.read($0, x: 1, y: 1) } == RGBColor(red: 9, green: 0, blue: 0).xrgb8888)
    }

    @Test func anotherPoolsLeaseHasNoStorageHere() throws {
        let pool = Self.pool(2), other = Self.pool(2)
        let lease = try #require(other.lendToOutput())

        #expect(pool.storage(of: lease) == nil)
        #expect(other.storage(of: lease) != nil)
    }
}

extension PixelBuffer {
    static func read(_ buffer: PixelBuffer, x: Int, y: Int) -> UInt32 {
        (buffer.baseAddress + y * buffer.bytesPerRow + x * 4).load(as: UInt32.self)
    }
}
