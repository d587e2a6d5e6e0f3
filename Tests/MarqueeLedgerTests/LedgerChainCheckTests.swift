import Foundation
import MarqueeLedger
import Testing

@Suite struct LedgerChainCheckTests {
    private func day(records: Int) throws -> [String] {
        let scratch = LedgerScratch()
        defer { scratch.remove() }
        let writer = try LedgerWriter(folder: scratch.path, maxBytes: 1 << 20, keepDays: 30, digest: sha) { _ in }
        for n in 0..<records {
            writer.append(play(n, start: "2026-11-29T10:00:0\(n).000Z", end: "2026-11-29T10:00:0\(n + 1).000Z", seconds: 1))
        }
        writer.close()
        return scratch.lines("2026-11-29")
    }

    private func check(_ lines: [String]) -> LedgerChainCheck.Outcome {
        LedgerChainCheck(digest: sha).check(Array(lines.map { $0 + "\n" }.joined().utf8))
    }

    @Test func anIntactDayPasses() throws {
        #expect(check(try day(records: 5)) == .init(records: 5, broken: nil))
    }

    @Test func anEditedRecordBreaksTheNextOnesLink() throws {
        var lines = try day(records: 5)
        lines[2] = lines[2].replacingOccurrences(of: "\"seconds\":1", with: "\"seconds\":30")
        let outcome = check(lines)
        #expect(outcome.records == 3)
        #expect(outcome.broken?.hasPrefix("line 4 (record 4") == true)
        #expect(outcome.broken?.contains("not the SHA-256 of line 3") == true)
    }

    @Test func aDeletedRecordIsNamed() throws {
        var lines = try day(records: 5)
        lines.remove(at: 1)
        let outcome = check(lines)
        #expect(outcome.records == 1)
        #expect(outcome.broken?.contains("line 2 (record 3") == true)
        #expect(outcome.broken?.contains("record 2 to 2 are missing") == true)
    }

    @Test func aDeletedFirstRecordIsNamed() throws {
        var lines = try day(records: 3)
        lines.removeFirst()
        #expect(check(lines).broken?.hasPrefix("line 1 (record 2") == true)
    }

    @Test func aLineThatIsNotARecordIsNamed() throws {
        var lines = try day(records: 3)
        lines.append("{\"torn\":")
        #expect(check(lines) == .init(records: 3, broken: "line 4 is not a record (torn or edited)"))
    }
}
