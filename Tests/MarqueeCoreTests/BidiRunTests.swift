import MarqueeCore
import Testing

/// Splitting a line into runs and ordering them (UAX #9 rule L2), from given levels.
@Suite struct BidiRunTests {
    private func order(_ text: String, _ levels: [UInt8]) -> [String] {
        let bytes = Array(text.utf8)
        return BidiRun.visualOrder(of: text, levels: levels).map { run in
            String(decoding: bytes[run.utf8Range], as: UTF8.self) + (run.direction == .rightToLeft ? "<" : ">")
        }
    }

    @Test func oneLevelIsOneRun() {
        #expect(order("abc", [0, 0, 0]) == ["abc>"])
        #expect(order("אבג", [1, 1, 1]) == ["אבג<"])
    }

    @Test func aRightToLeftStretchInALeftToRightLineKeepsItsPlace() {
        #expect(order("ab אב cd", [0, 0, 0, 1, 1, 0, 0, 0]) == ["ab >", "אב<", " cd>"])
    }

    @Test func runsAtOrAboveAnOddLevelSwapPlaces() {
        // A number (level 2) after a Hebrew word (level 1) in a left-to-right line: the number
        // stands to the word's left.
        #expect(order("a אב 12", [0, 0, 1, 1, 1, 2, 2]) == ["a >", "12>", "אב <"])
        // In a right-to-left line, a Latin word (level 2) between Hebrew ones.
        #expect(order("אב cd גד", [1, 1, 1, 2, 2, 1, 1, 1]) == [" גד<", "cd>", "אב <"])
    }

    @Test func nestedLevelsReverseFromTheHighestDown() {
        // Levels 1 2 3 2 1: L2 reverses [c], then [b c d] to [d c b], then all of a d c b e.
        #expect(order("abcde", [1, 2, 3, 2, 1]) == ["e<", "b>", "c<", "d>", "a<"])
    }

    @Test func multiByteScalarsGiveByteRanges() {
        let runs = BidiRun.visualOrder(of: "é אב", levels: [0, 0, 1, 1])
        #expect(runs.map(\.utf8Range) == [0..<3, 3..<7])
    }
}
