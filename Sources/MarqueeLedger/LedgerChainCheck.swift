import MarqueeCore

/// Checks a ledger file's hash chain: every line a record, numbered from 1 in order, each naming
/// the SHA-256 of the line before it. An edited record breaks the next one's link; a deleted one
/// breaks the numbering and the link; a torn last line is not a record.
public struct LedgerChainCheck: Sendable {
    public struct Outcome: Equatable, Sendable {
        public var records: Int
        /// The first problem, naming the line and the record; nil: the chain is intact.
        public var broken: String?

        public init(records: Int, broken: String?) {
            self.records = records
            self.broken = broken
        }
    }

    private let digest: any FileDigesting

    public init(digest: any FileDigesting) {
        self.digest = digest
    }

    public func check(_ data: [UInt8]) -> Outcome {
        var previous: ArraySlice<UInt8>?
        var count = 0
        for (offset, line) in LedgerLine.lines(of: data).enumerated() {
            let number = offset + 1
            guard let record = LedgerLine.record(from: line) else {
                return Outcome(records: count, broken: "line \(number) is not a record (torn or edited)")
            }
            if record.seq != number {
                let what = record.seq > number ? "record \(number) to \(record.seq - 1) are missing (deleted)" : "records are out of order or repeated"
                return Outcome(records: count, broken: "line \(number) (record \(record.seq), id \(record.id)): \(what)")
            }
            let expected = previous.map { digest.sha256(of: Array($0)) }
            if record.prev != expected {
                let cause = number == 1 ? "the first record of a file names a predecessor (records before it were deleted)"
                    : "its prev is not the SHA-256 of line \(number - 1) (that record was edited, or one was deleted)"
                return Outcome(records: count, broken: "line \(number) (record \(record.seq), id \(record.id)): \(cause)")
            }
            previous = line
            count += 1
        }
        return Outcome(records: count, broken: nil)
    }
}
