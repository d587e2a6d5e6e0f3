import Foundation
import Glibc
import MarqueeCore
import MarqueeLedger
import Testing

@Suite struct LedgerWriterTests {
    @Test func eachRecordIsOneLineChainedToTheOneBefore() throws {
        let scratch = LedgerScratch()
        defer { scratch.remove() }
        let writer = try LedgerWriter(folder: scratch.path, maxBytes: 1 << 20, keepDays: 30, digest: sha) { _ in }
        #expect(writer.append(play(0, start: "2026-11-29T10:00:00.000Z", end: "2026-11-29T10:00:10.000Z", seconds: 10)))
        #expect(writer.append(play(1, start: "2026-11-29T10:00:10.000Z", end: "2026-11-29T10:00:15.500Z", seconds: 5.5)))
        writer.close()
        let lines = scratch.lines("2026-11-29")
        #expect(lines.count == 2)
        let first = try #require(LedgerLine.record(from: Array(lines[0].utf8)))
        let second = try #require(LedgerLine.record(from: Array(lines[1].utf8)))
        #expect(first.seq == 1 && first.prev == nil)
        #expect(second.seq == 2 && second.prev == sha.sha256(of: Array(lines[0].utf8)))
        #expect(LedgerChainCheck(digest: sha).check(Array(try Data(contentsOf: URL(fileURLWithPath: scratch.file("2026-11-29"))))).broken == nil)
    }

    @Test func aRestartContinuesTheDaysChain() throws {
        let scratch = LedgerScratch()
        defer { scratch.remove() }
        let first = try LedgerWriter(folder: scratch.path, maxBytes: 1 << 20, keepDays: 30, digest: sha) { _ in }
        first.append(play(0, start: "2026-11-29T10:00:00.000Z", end: "2026-11-29T10:00:10.000Z", seconds: 10))
        first.close()
        let second = try LedgerWriter(folder: scratch.path, maxBytes: 1 << 20, keepDays: 30, digest: sha) { _ in }
        second.append(play(1, start: "2026-11-29T11:00:00.000Z", end: "2026-11-29T11:00:10.000Z", seconds: 10))
        second.close()
        let data = Array(try Data(contentsOf: URL(fileURLWithPath: scratch.file("2026-11-29"))))
        #expect(LedgerChainCheck(digest: sha).check(data) == .init(records: 2, broken: nil))
    }

    @Test func aNewUTCDayStartsANewFileWithANewChain() throws {
        let scratch = LedgerScratch()
        defer { scratch.remove() }
        let writer = try LedgerWriter(folder: scratch.path, maxBytes: 1 << 20, keepDays: 30, digest: sha) { _ in }
        writer.append(play(0, start: "2026-11-29T23:59:50.000Z", end: "2026-11-29T23:59:59.999Z", seconds: 9.999))
        // Filed by its end: a play across midnight is the new day's.
        writer.append(play(1, start: "2026-11-29T23:59:59.999Z", end: "2026-11-30T00:00:09.999Z", seconds: 10))
        writer.close()
        #expect(scratch.lines("2026-11-29").count == 1)
        let next = try #require(scratch.lines("2026-11-30").first.flatMap { LedgerLine.record(from: Array($0.utf8)) })
        #expect(next.seq == 1 && next.prev == nil)
    }

    @Test func oldDaysGoPastKeepDaysAndTheBoundOldestFirstNeverToday() throws {
        let scratch = LedgerScratch()
        defer { scratch.remove() }
        let notices = NoticeLog()
        let writer = try LedgerWriter(folder: scratch.path, maxBytes: 3_000, keepDays: 5, digest: sha, notice: notices.add)
        for day in 1...9 {
            let date = "2026-11-0\(day)"
            for n in 0..<3 { writer.append(play(n, start: "\(date)T10:00:0\(n).000Z", end: "\(date)T10:00:0\(n + 1).000Z", seconds: 1)) }
        }
        writer.close()
        let days = LedgerFolder(path: scratch.path).files().map(\.day)
        let bytes = LedgerFolder(path: scratch.path).files().reduce(0) { $0 + $1.bytes }
        // Three records a day are about 1,000 bytes: the 3,000-byte bound keeps fewer days than keepDays' five.
        #expect(days.last == "2026-11-09")
        #expect(days.count < 5 && days.count >= 2, "\(days)")
        #expect(bytes <= 3_000)
        #expect(days == days.sorted() && Set(days).count == days.count)
        #expect(notices.all.contains { if case .info(let line) = $0 { line.contains("plays-2026-11-01.jsonl") } else { false } })
    }

    @Test func keepDaysCountsBackFromTheDayWritten() throws {
        let scratch = LedgerScratch()
        defer { scratch.remove() }
        let writer = try LedgerWriter(folder: scratch.path, maxBytes: 1 << 30, keepDays: 3, digest: sha) { _ in }
        for day in 1...6 {
            writer.append(play(0, start: "2026-11-0\(day)T10:00:00.000Z", end: "2026-11-0\(day)T10:00:01.000Z", seconds: 1))
        }
        writer.close()
        #expect(LedgerFolder(path: scratch.path).files().map(\.day) == ["2026-11-04", "2026-11-05", "2026-11-06"])
    }

    @Test func aFullDiskDeletesTheOldestDayAndTheRecordIsWritten() throws {
        let scratch = LedgerScratch()
        defer { scratch.remove() }
        let notices = NoticeLog()
        let writer = try LedgerWriter(folder: scratch.path, maxBytes: 1 << 30, keepDays: 30, digest: sha, notice: notices.add)
        writer.append(play(0, start: "2026-11-28T10:00:00.000Z", end: "2026-11-28T10:00:01.000Z", seconds: 1))
        writer.append(play(0, start: "2026-11-29T10:00:00.000Z", end: "2026-11-29T10:00:01.000Z", seconds: 1))
        let faults = SystemCallFaults(["write": [ENOSPC]])
        let written = SystemCall.$faults.withValue(faults) {
            writer.append(play(1, start: "2026-11-29T10:00:01.000Z", end: "2026-11-29T10:00:02.000Z", seconds: 1))
        }
        writer.close()
        #expect(written)
        #expect(faults.remaining.isEmpty)
        #expect(LedgerFolder(path: scratch.path).files().map(\.day) == ["2026-11-29"])
        #expect(notices.all.contains(.info("ledger: deleted plays-2026-11-28.jsonl: the disk is full")))
        let data = Array(try Data(contentsOf: URL(fileURLWithPath: scratch.file("2026-11-29"))))
        #expect(LedgerChainCheck(digest: sha).check(data) == .init(records: 2, broken: nil))
    }

    @Test func aFailingWriteIsSaidOnceAndTheRecordIsKeptForTheNext() throws {
        let scratch = LedgerScratch()
        defer { scratch.remove() }
        let notices = NoticeLog()
        let writer = try LedgerWriter(folder: scratch.path, maxBytes: 1 << 30, keepDays: 30, digest: sha, notice: notices.add)
        let faults = SystemCallFaults(["write": [EIO, EIO]])
        SystemCall.$faults.withValue(faults) {
            #expect(!writer.append(play(0, start: "2026-11-29T10:00:00.000Z", end: "2026-11-29T10:00:01.000Z", seconds: 1)))
            #expect(!writer.append(play(1, start: "2026-11-29T10:00:01.000Z", end: "2026-11-29T10:00:02.000Z", seconds: 1)))
        }
        #expect(writer.unwritten.count == 2)
        #expect(writer.append(play(2, start: "2026-11-29T10:00:02.000Z", end: "2026-11-29T10:00:03.000Z", seconds: 1)))
        writer.close()
        let errors = notices.all.filter { if case .error = $0 { true } else { false } }
        #expect(errors.count == 1)
        #expect(scratch.lines("2026-11-29").compactMap { LedgerLine.record(from: Array($0.utf8))?.index } == [0, 1, 2])
    }

    @Test func aFolderThatCannotBeMadeIsOneLineNamingIt() {
        #expect(throws: LedgerError.self) {
            try LedgerWriter(folder: "/proc/marquee-ledger", maxBytes: 1 << 20, keepDays: 30, digest: sha) { _ in }
        }
    }
}
