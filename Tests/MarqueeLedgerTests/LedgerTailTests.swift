import Foundation
import MarqueeLedger
import Testing

@Suite struct LedgerTailTests {
    private func writeDay(_ scratch: LedgerScratch, records: Int) throws -> String {
        let writer = try LedgerWriter(folder: scratch.path, maxBytes: 1 << 20, keepDays: 30, digest: sha) { _ in }
        for n in 0..<records {
            writer.append(play(n, start: "2026-11-29T10:00:0\(n).000Z", end: "2026-11-29T10:00:0\(n + 1).000Z", seconds: 1))
        }
        writer.close()
        return scratch.file("2026-11-29")
    }

    private func append(_ bytes: [UInt8], to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
    }

    @Test func aHalfWrittenLastLineIsCutAtStartWithOneWarningAndTheChainGoesOn() throws {
        let scratch = LedgerScratch()
        defer { scratch.remove() }
        let path = try writeDay(scratch, records: 3)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try append(Array(#"{"device":"lobby-1","end":"2026-11-29T10:00:0"#.utf8), to: path)
        let notices = NoticeLog()
        let writer = try LedgerWriter(folder: scratch.path, maxBytes: 1 << 20, keepDays: 30, digest: sha, notice: notices.add)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == whole)
        #expect(notices.all.count == 1)
        #expect(notices.all.first.map { if case .warning(let line) = $0 { line.contains("torn last record") && line.contains("3 records") } else { false } } == true)
        writer.append(play(3, start: "2026-11-29T10:00:04.000Z", end: "2026-11-29T10:00:05.000Z", seconds: 1))
        writer.close()
        #expect(LedgerChainCheck(digest: sha).check(Array(try Data(contentsOf: URL(fileURLWithPath: path)))) == .init(records: 4, broken: nil))
    }

    @Test func zerosLeftByACrashAreCut() throws {
        let scratch = LedgerScratch()
        defer { scratch.remove() }
        let path = try writeDay(scratch, records: 2)
        try append([UInt8](repeating: 0, count: 4096), to: path)
        let found = try LedgerTail.repair(path: path)
        #expect(found.cutBytes == 4096 && found.lastSeq == 2)
    }

    @Test func aWholeLastRecordWithoutItsNewlineIsKept() throws {
        let scratch = LedgerScratch()
        defer { scratch.remove() }
        let path = try writeDay(scratch, records: 2)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.dropLast().write(to: URL(fileURLWithPath: path))
        let found = try LedgerTail.repair(path: path)
        #expect(found.cutBytes == 0 && found.lastSeq == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == data)
    }

    @Test func aCleanFileIsLeftAlone() throws {
        let scratch = LedgerScratch()
        defer { scratch.remove() }
        let path = try writeDay(scratch, records: 2)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try LedgerTail.repair(path: path).cutBytes == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == data)
    }
}
