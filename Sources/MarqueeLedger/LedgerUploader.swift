import Foundation
import MarqueeCore

/// Sends the ledger to a receiver, offline first: the ledger is the buffer. Every `interval` (and
/// at start, and when nudged) the records after the acknowledged cursor go out in batches, as the
/// lines are stored (newline-delimited JSON, so a receiver can check the chains too), one
/// `transport.deliver` each: an HTTP POST answered 2xx, or an MQTT message the broker
/// acknowledged. Only an acknowledgement moves the cursor past the batch, and it is kept on disk
/// (the transport's own file: each receiver its own place) before the next. A failure is one
/// warning per outage, not per try, and the next try backs off from 5 s (or the interval, when
/// shorter), doubling, to 5 minutes; the records wait in the ledger. A receiver that stored a
/// batch and failed to say so gets it again: records carry ids so it can drop repeats.
/// Runs on a thread of its own (the transports block), never a real-time one.
public final class LedgerUploader: @unchecked Sendable {
    public struct Settings: Sendable {
        /// Seconds between rounds while the receiver keeps up.
        public var interval: Double
        public var batchRecords: Int
        public var batchBytes: Int

        public init(interval: Double = 60, batchRecords: Int = 500, batchBytes: Int = 512 << 10) {
            self.interval = interval
            self.batchRecords = batchRecords
            self.batchBytes = batchBytes
        }
    }

    public static let firstBackOff = 5.0
    public static let longestBackOff = 300.0

    private let folder: LedgerFolder
    private let settings: Settings
    private let transport: any LedgerTransport
    private let notice: @Sendable (LedgerNotice) -> Void
    /// Its waits run on the monotonic clock: a wall clock set back would stretch a back-off.
    private let condition = MonotonicCondition()
    private var stopping = false
    /// A round is asked for now (`nudge`): kept until the loop sees it, so a nudge that comes
    /// while a round runs is not lost.
    private var nudged = false
    private var acknowledged: UploadCursor?
    private var failures = 0
    private var thread: Thread?
    /// Records sent and acknowledged since start, and batches sent: what the closing figures read.
    public private(set) var sentRecords = 0
    public private(set) var sentBatches = 0

    public init(folder: String, transport: any LedgerTransport, settings: Settings = Settings(),
                notice: @escaping @Sendable (LedgerNotice) -> Void) {
        self.folder = LedgerFolder(path: folder)
        self.settings = settings
        self.transport = transport
        self.notice = notice
        acknowledged = UploadCursor.load(from: folder, file: transport.cursorFile)
    }

    /// Whether the day's file holds records the receiver has not acknowledged: such a day is kept
    /// past the ledger's bounds (`LedgerWriter.keeps`) unless the disk is full.
    public func holdsUnsent(day: String) -> Bool {
        condition.withLock { acknowledged.map { day >= $0.day } ?? true }
    }

    public var cursor: UploadCursor? { condition.withLock { acknowledged } }

    public func start() {
        let thread = Thread { [self] in
            ThreadName.set("marquee.upload")
            run()
        }
        thread.name = "marquee.upload"
        thread.qualityOfService = .utility
        condition.withLock { self.thread = thread }
        thread.start()
    }

    /// Stops between requests; a request in flight is abandoned with the process (it is sent again).
    public func stop() {
        condition.withLock {
            stopping = true
            condition.broadcast()
        }
    }

    /// One round now instead of at the interval or the back-off's end (the broker connected
    /// again, tests).
    public func nudge() {
        condition.withLock {
            nudged = true
            condition.broadcast()
        }
    }

    private func run() {
        while !condition.withLock({ stopping }) {
            condition.withLock { nudged = false }
            let wait = sendPending() ? settings.interval : backOff()
            let until = ContinuousClock.now + .seconds(wait)
            condition.withLock {
                while !stopping && !nudged && condition.wait(until: until) {}
            }
        }
    }

    /// Sends batches until none is left or the way is down (true: wait the interval) or one
    /// fails (false: back off).
    private func sendPending() -> Bool {
        while !condition.withLock({ stopping }) {
            let batch = pendingBatch()
            guard let last = batch.last else { return true }
            do throws(LedgerDeliveryError) {
                try transport.deliver(batch.flatMap { $0.line + [UInt8(ascii: "\n")] })
            } catch {
                guard case .failed(let reason) = error else { return true }
                failures += 1
                if failures == 1 {
                    notice(.warning("ledger upload: \(transport.destination): \(reason); the records wait in the ledger and are sent again"))
                }
                return false
            }
            if failures > 0 {
                notice(.info("ledger upload: \(transport.destination) takes records again after \(failures) failed tr\(failures == 1 ? "y" : "ies")"))
                failures = 0
            }
            do {
                try last.cursor.save(in: folder.path, file: transport.cursorFile)
            } catch {
                notice(.error("\(error)"))
            }
            condition.withLock { acknowledged = last.cursor }
            sentRecords += batch.count
            sentBatches += 1
        }
        return true
    }

    /// 5 s (or the interval, when shorter), 10 s, 20 s … 5 min, each ±10 % at random, so a fleet
    /// back from an outage does not arrive all at once.
    private func backOff() -> Double {
        let first = min(Self.firstBackOff, settings.interval)
        let base = min(Self.longestBackOff, first * pow(2, Double(min(16, max(0, failures - 1)))))
        return base * Double.random(in: 0.9...1.1)
    }

    private struct Pending {
        var line: [UInt8]
        var cursor: UploadCursor
    }

    /// The records after the cursor, oldest first, up to a batch's size. Only whole lines count:
    /// the writer may be appending the next one.
    private func pendingBatch() -> [Pending] {
        let after = condition.withLock { acknowledged }
        var batch: [Pending] = []
        var bytes = 0
        for file in folder.files() where after.map({ file.day >= $0.day }) ?? true {
            guard let data = FileManager.default.contents(atPath: file.path) else { continue }
            var lines = LedgerLine.lines(of: Array(data))
            if data.last != UInt8(ascii: "\n"), !lines.isEmpty { lines.removeLast() }
            for line in lines {
                guard let record = LedgerLine.record(from: line) else { continue }
                let cursor = UploadCursor(day: file.day, seq: record.seq)
                if let after, cursor <= after { continue }
                batch.append(Pending(line: Array(line), cursor: cursor))
                bytes += line.count + 1
                if batch.count >= settings.batchRecords || bytes >= settings.batchBytes { return batch }
            }
        }
        return batch
    }
}
