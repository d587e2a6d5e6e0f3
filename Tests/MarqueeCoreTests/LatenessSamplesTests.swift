import Foundation
import MarqueeCore
import Synchronization
import Testing

/// The present thread's hand-over of frame lateness: nothing lost while there is room, nothing
/// waited for when there is none.
struct LatenessSamplesTests {
    @Test func samplesComeOutInOrderOnceEach() {
        let samples = LatenessSamples(capacity: 4)
        for value in [5, 6, 7] as [Int64] { samples.record(nanoseconds: value) }
        var taken: [Int64] = []
        samples.drain { taken.append($0) }
        samples.record(nanoseconds: 8)
        samples.drain { taken.append($0) }
        samples.drain { taken.append($0) }
        #expect(taken == [5, 6, 7, 8])
    }

    @Test func aFullRingKeepsWhatItHasAndTakesMoreOnceRead() {
        let samples = LatenessSamples(capacity: 2)
        for value in [1, 2, 3, 4] as [Int64] { samples.record(nanoseconds: value) }
        var taken: [Int64] = []
        samples.drain { taken.append($0) }
        samples.record(nanoseconds: 9)
        samples.drain { taken.append($0) }
        #expect(taken == [1, 2, 9])
    }

    @Test func aWriterAndAReaderOnTwoThreadsAgree() {
        let samples = LatenessSamples(capacity: 64)
        let count: Int64 = 200_000
        let finished = Atomic<Bool>(false)
        let writer = Thread {
            for value in 0..<count { samples.record(nanoseconds: value) }
            finished.store(true, ordering: .releasing)
        }
        writer.start()
        var taken: [Int64] = []
        while !finished.load(ordering: .acquiring) { samples.drain { taken.append($0) } }
        samples.drain { taken.append($0) }
        // What was kept is in order, without repeats or torn values; a full ring dropped the rest.
        #expect(zip(taken, taken.dropFirst()).allSatisfy { $0 < $1 })
        #expect(taken.allSatisfy { (0..<count).contains($0) })
        #expect(taken.count >= 64)
    }
}
