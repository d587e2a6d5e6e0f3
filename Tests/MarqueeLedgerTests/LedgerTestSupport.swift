import Foundation
import MarqueeCore
import MarqueeLedger
import MarqueeMedia

/// A fresh folder under the temporary directory, removed by `remove()`.
struct LedgerScratch {
    let path: String

    init() {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("ledger-\(UUID().uuidString)")
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ day: String) -> String { LedgerFolder(path: path).filePath(day: day) }

    func lines(_ day: String) -> [String] {
        ((try? String(contentsOfFile: file(day), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}

/// Collects what a writer says.
final class NoticeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var notices: [LedgerNotice] = []

    func add(_ notice: LedgerNotice) { lock.withLock { notices.append(notice) } }
    var all: [LedgerNotice] { lock.withLock { notices } }
}

func play(_ index: Int, start: String, end: String, seconds: Double, ended: String = LedgerRecord.completed, item: String = "clip") -> LedgerRecord {
    LedgerRecord(id: UUID().uuidString, device: "lobby-1", screen: "main", config: "sha256:00", daypart: nil, item: item,
                 index: index, url: "/media/\(item).mp4", title: nil, start: start, end: end, seconds: seconds, ended: ended)
}

let sha = FileSHA256()

/// `perDay` records on each day of November 2026 in `days`, closed; their ids in order.
func writeLedgerDays(_ scratch: LedgerScratch, days: ClosedRange<Int>, perDay: Int) throws -> [String] {
    let writer = try LedgerWriter(folder: scratch.path, maxBytes: 1 << 30, keepDays: 365, digest: sha) { _ in }
    var ids: [String] = []
    for day in days {
        for n in 0..<perDay {
            let second = String(format: "%02d:%02d", n / 60 % 60, n % 60)
            let record = play(n, start: "2026-11-\(day)T10:\(second).000Z", end: "2026-11-\(day)T10:\(second).500Z", seconds: 0.5)
            writer.append(record)
            ids.append(record.id)
        }
    }
    writer.close()
    return ids
}
