import Foundation
import MarqueeFleet
import Testing

/// The eviction order as a table: what goes, in which order, and when it stops.
@Suite struct EvictionPlanTests {
    static func file(_ name: String, _ size: Int64, used: Double?, referenced: Bool = false) -> EvictionPlan.File {
        EvictionPlan.File(name: name, size: size, lastUsed: used.map { Date(timeIntervalSince1970: $0) }, isReferenced: referenced)
    }

    static let files = [
        file("a", 100, used: 40), file("b", 100, used: 10), file("c", 100, used: 30, referenced: true),
        file("d", 100, used: 20), file("e", 100, used: nil),
    ]

    @Test(arguments: [
        // bound, other bytes, removals, total after
        (600, 0, [String](), 500),             // within the bound: nothing goes
        (450, 0, ["e"], 400),                  // the unindexed file first
        (250, 0, ["e", "b", "d"], 200),        // then least recently used
        (0, 0, ["e", "b", "d", "a"], 100),     // never the referenced one, even over the bound
        (450, 100, ["e", "b"], 400),           // referenced partial downloads count too
    ])
    func removesLeastRecentlyUsedUnreferencedFilesUntilWithinTheBound(bound: Int64, other: Int64, removals: [String], after: Int64) {
        let plan = EvictionPlan(files: Self.files, otherBytes: other, bound: bound)
        #expect(plan.removals == removals)
        #expect(plan.totalAfter == after)
    }

    @Test func theNameBreaksTiesSoEveryDeviceAgrees() {
        let plan = EvictionPlan(files: [Self.file("z", 10, used: 5), Self.file("m", 10, used: 5), Self.file("q", 10, used: nil),
                                        Self.file("k", 10, used: nil)], bound: 15)
        #expect(plan.removals == ["k", "q", "m"])
    }
}
