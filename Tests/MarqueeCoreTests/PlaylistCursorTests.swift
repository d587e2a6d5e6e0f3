import Testing
@testable import MarqueeCore

/// One step applied to a cursor, and what it answers, so sequences read as tables.
enum CursorStep: CustomStringConvertible, Sendable {
    case start(Int?), next(Int?), previous(Int?), end(ItemEndAction), jump(Int, Int?)
    case pauseAfterCurrent

    var description: String {
        switch self {
        case .start(let i): "start→\(i.map(String.init) ?? "nil")"
        case .next(let i): "next→\(i.map(String.init) ?? "nil")"
        case .previous(let i): "previous→\(i.map(String.init) ?? "nil")"
        case .end(let a): "end→\(a)"
        case .jump(let to, let i): "jump(\(to))→\(i.map(String.init) ?? "nil")"
        case .pauseAfterCurrent: "pauseAfterCurrent"
        }
    }
}

struct CursorCase: Sendable, CustomTestStringConvertible {
    let name: String
    let mode: RepeatMode
    let count: Int
    let steps: [CursorStep]
    var testDescription: String { name }
}

@Suite struct PlaylistCursorTests {
    static let sequences: [CursorCase] = [
        CursorCase(name: "empty off", mode: .off, count: 0, steps: [.start(nil), .next(nil), .previous(nil), .end(.idle), .jump(0, nil)]),
        CursorCase(name: "empty all", mode: .all, count: 0, steps: [.start(nil), .next(nil), .previous(nil), .end(.idle)]),
        CursorCase(name: "empty one", mode: .one, count: 0, steps: [.start(nil), .next(nil), .end(.idle)]),
        CursorCase(name: "empty shuffle", mode: .shuffle, count: 0, steps: [.start(nil), .next(nil), .previous(nil), .end(.idle)]),
        CursorCase(name: "one item off", mode: .off, count: 1, steps: [.start(0), .end(.idle), .end(.idle), .previous(0), .next(nil)]),
        CursorCase(name: "one item all", mode: .all, count: 1, steps: [.start(0), .end(.play(0)), .next(0), .previous(0)]),
        CursorCase(name: "one item one", mode: .one, count: 1, steps: [.start(0), .end(.play(0)), .end(.play(0)), .next(0)]),
        CursorCase(name: "one item shuffle", mode: .shuffle, count: 1, steps: [.start(0), .end(.play(0)), .next(0), .previous(0)]),
        CursorCase(name: "off plays through once", mode: .off, count: 3,
                   steps: [.start(0), .end(.play(1)), .end(.play(2)), .end(.idle), .end(.idle)]),
        CursorCase(name: "off next stops after the last, previous stops at the first", mode: .off, count: 3,
                   steps: [.start(0), .previous(0), .next(1), .next(2), .next(nil), .previous(2), .previous(1)]),
        CursorCase(name: "off restarts from exhaustion", mode: .off, count: 2,
                   steps: [.start(0), .end(.play(1)), .end(.idle), .next(0)]),
        CursorCase(name: "all wraps both ways", mode: .all, count: 3,
                   steps: [.start(0), .end(.play(1)), .end(.play(2)), .end(.play(0)), .previous(2), .next(0), .next(1)]),
        CursorCase(name: "one repeats at end, next/previous still move and wrap", mode: .one, count: 3,
                   steps: [.start(0), .end(.play(0)), .end(.play(0)), .next(1), .end(.play(1)), .previous(0), .previous(2), .next(0)]),
        CursorCase(name: "pauseAfterCurrentItem is one-shot", mode: .all, count: 3,
                   steps: [.start(0), .pauseAfterCurrent, .end(.pause(1)), .end(.play(2)), .end(.play(0))]),
        CursorCase(name: "pauseAfterCurrentItem with repeat one pauses on the same item", mode: .one, count: 2,
                   steps: [.start(0), .pauseAfterCurrent, .end(.pause(0)), .end(.play(0))]),
        CursorCase(name: "pauseAfterCurrentItem at the end of repeat off goes idle", mode: .off, count: 2,
                   steps: [.start(0), .end(.play(1)), .pauseAfterCurrent, .end(.idle)]),
        CursorCase(name: "pauseAfterCurrentItem twice cancels", mode: .all, count: 2,
                   steps: [.start(0), .pauseAfterCurrent, .pauseAfterCurrent, .end(.play(1))]),
        CursorCase(name: "jump ignores out-of-range items", mode: .all, count: 3,
                   steps: [.start(0), .jump(2, 2), .end(.play(0)), .jump(3, nil), .jump(-1, nil), .next(1)]),
    ]

    @Test(arguments: sequences)
    func followsTheRulesOfEachMode(_ testCase: CursorCase) {
        var cursor = PlaylistCursor(itemCount: testCase.count, repeatMode: testCase.mode, seed: 7)
        for (number, step) in testCase.steps.enumerated() {
            switch step {
            case .start(let expected): #expect(cursor.start() == expected, "step \(number): \(step)")
            case .next(let expected): #expect(cursor.next() == expected, "step \(number): \(step)")
            case .previous(let expected): #expect(cursor.previous() == expected, "step \(number): \(step)")
            case .end(let expected): #expect(cursor.advanceAtEnd() == expected, "step \(number): \(step)")
            case .jump(let index, let expected): #expect(cursor.jump(to: index) == expected, "step \(number): \(step)")
            case .pauseAfterCurrent: cursor.pauseAfterCurrentItem.toggle()
            }
        }
    }

    @Test func cycleRepeatModeGoesOffAllOneShuffleOff() {
        var cursor = PlaylistCursor(itemCount: 3, repeatMode: .off)
        var seen: [RepeatMode] = []
        for _ in 0..<4 { seen.append(cursor.cycleRepeatMode()) }
        #expect(seen == [.all, .one, .shuffle, .off])
    }

    /// Plays `count` rounds' worth of item ends and returns the order, the first item included.
    private func shufflePlays(items: Int, rounds: Int, seed: UInt64) -> [Int] {
        var cursor = PlaylistCursor(itemCount: items, repeatMode: .shuffle, seed: seed)
        var played = [cursor.start()!]
        while played.count < items * rounds {
            guard case .play(let index) = cursor.advanceAtEnd() else {
                Issue.record("shuffle stopped")
                break
            }
            played.append(index)
        }
        return played
    }

    @Test(arguments: [2, 3, 5, 8], [UInt64(1), 42, 0xDEAD_BEEF])
    func shufflePlaysEveryItemOncePerRoundAndNeverTwiceInARow(items: Int, seed: UInt64) {
        let played = shufflePlays(items: items, rounds: 40, seed: seed)
        for round in 0..<40 {
            let slice = played[(round * items)..<((round + 1) * items)]
            #expect(slice.sorted() == Array(0..<items), "round \(round): \(Array(slice))")
        }
        for (previous, next) in zip(played, played.dropFirst()) {
            #expect(previous != next, "\(played)")
        }
    }

    @Test func shuffleOfTwoItemsAlternates() {
        let played = shufflePlays(items: 2, rounds: 10, seed: 3)
        #expect(played == Array(repeating: [played[0], 1 - played[0]], count: 10).flatMap { $0 })
    }

    @Test func shuffleIsDeterministicForASeedAndVariesAcrossSeeds() {
        let first = shufflePlays(items: 6, rounds: 5, seed: 99)
        #expect(shufflePlays(items: 6, rounds: 5, seed: 99) == first)
        #expect(shufflePlays(items: 6, rounds: 5, seed: 100) != first)
        // Rounds are not all the same permutation.
        let rounds: [[Int]] = (0..<5).map { round in Array(first[(round * 6)..<((round + 1) * 6)]) }
        #expect(Set(rounds).count > 1)
    }

    /// The generator is fixed across Swift releases; pinning its first values catches any change.
    @Test func seededRandomSequenceIsPinned() {
        var random = SeededRandom(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
        var cursorA = PlaylistCursor(itemCount: 5, repeatMode: .shuffle, seed: 2024)
        var orderA = [cursorA.start()!]
        for _ in 0..<4 { orderA.append(cursorA.next()!) }
        #expect(orderA.sorted() == [0, 1, 2, 3, 4])
    }

    @Test func shufflePreviousWalksBackAndNextReplaysForward() {
        var cursor = PlaylistCursor(itemCount: 5, repeatMode: .shuffle, seed: 11)
        var forward = [cursor.start()!]
        for _ in 0..<6 { forward.append(cursor.next()!) }
        var backward: [Int] = []
        for _ in 0..<3 { backward.append(cursor.previous()!) }
        #expect(backward == [forward[5], forward[4], forward[3]])
        var again: [Int] = []
        for _ in 0..<3 { again.append(cursor.next()!) }
        #expect(again == [forward[4], forward[5], forward[6]])
    }

    @Test func shufflePreviousAtTheVeryFirstItemStaysThere() {
        var cursor = PlaylistCursor(itemCount: 4, repeatMode: .shuffle, seed: 5)
        let first = cursor.start()
        #expect(cursor.previous() == first)
    }

    @Test func jumpingInShuffleStartsARoundWithThatItem() {
        var cursor = PlaylistCursor(itemCount: 6, repeatMode: .shuffle, seed: 8)
        _ = cursor.start()
        _ = cursor.next()
        #expect(cursor.jump(to: 4) == 4)
        var round = [4]
        for _ in 0..<5 { round.append(cursor.next()!) }
        #expect(round.sorted() == Array(0..<6))
        #expect(cursor.next() != round.last)
    }

    @Test func switchingToShuffleStartsARoundWithTheCurrentItem() {
        var cursor = PlaylistCursor(itemCount: 5, repeatMode: .all, seed: 21)
        _ = cursor.start()
        _ = cursor.next()
        _ = cursor.next()
        cursor.setRepeatMode(.shuffle)
        #expect(cursor.current == 2)
        var round = [2]
        for _ in 0..<4 { round.append(cursor.next()!) }
        #expect(round.sorted() == Array(0..<5))
        cursor.setRepeatMode(.all)
        let current = cursor.current!
        #expect(cursor.next() == (current + 1) % 5)
    }

    @Test func shuffleHistoryStaysBoundedOverMonthsOfLooping() {
        var cursor = PlaylistCursor(itemCount: 7, repeatMode: .shuffle, seed: 1)
        _ = cursor.start()
        for _ in 0..<100_000 { _ = cursor.advanceAtEnd() }
        #expect(cursor.shuffleOrder.count <= 3 * 7)
    }
}

@Suite struct PlaylistCursorStartOverTests {
    @Test func aDroppedItemsEndStartsTheListFromTheTop() {
        var cursor = PlaylistCursor(itemCount: 3, repeatMode: .off)
        cursor.startOverAtEnd()
        #expect(cursor.current == nil)
        #expect(cursor.advanceAtEnd() == .play(0))
        #expect(cursor.advanceAtEnd() == .play(1))
    }

    @Test func anEmptyListHasNothingToStart() {
        var cursor = PlaylistCursor(itemCount: 0, repeatMode: .all)
        cursor.startOverAtEnd()
        #expect(cursor.advanceAtEnd() == .idle)
    }
}
