import Dispatch
import Foundation
import Logging
import MarqueeConfig
import MarqueeCore
import MarqueeLedger

/// The device's one play ledger: every screen's records go through here into one writer (one chain
/// per day file), on a queue of its own, synced at most `syncInterval` after a write and at exit,
/// and to each receiver configured (`proofOfPlay.upload`, `mqtt.proofOfPlay`). Never on a
/// real-time thread.
package final class PlayLedgerSink: @unchecked Sendable {
    private let writer: LedgerWriter
    /// The ledger's folder, where each uploader keeps its cursor.
    private let folder: String
    private let notice: @Sendable (LedgerNotice) -> Void
    private let identity: ItemIdentity
    private let queue = DispatchQueue(label: "marquee.ledger")
    private let lock = NSLock()
    /// The receivers the records go to; none: they stay here.
    private var uploaders: [LedgerUploader] = []
    private var syncPending = false
    private var finished = false

    package static let syncInterval = 5.0

    package init(writer: LedgerWriter, folder: String, identity: ItemIdentity, notice: @escaping @Sendable (LedgerNotice) -> Void) {
        self.writer = writer
        self.folder = folder
        self.identity = identity
        self.notice = notice
        // A day goes past the bounds only once every receiver has acknowledged it.
        writer.keeps = { [weak self] day in self?.holdsUnsent(day: day) ?? false }
    }

    /// Whether some receiver has not acknowledged the day yet.
    private func holdsUnsent(day: String) -> Bool {
        lock.withLock { uploaders }.contains { $0.holdsUnsent(day: day) }
    }

    /// Sends the records to one more receiver, from its own cursor, once `start` is called.
    @discardableResult
    package func send(through transport: any LedgerTransport, settings: LedgerUploader.Settings) -> LedgerUploader {
        let uploader = LedgerUploader(folder: folder, transport: transport, settings: settings, notice: notice)
        lock.withLock { uploaders.append(uploader) }
        return uploader
    }

    /// Writes the record `make` builds with the item's name (hashing a local file is done here,
    /// off the thread that heard the event).
    package func write(_ make: @escaping @Sendable (ItemIdentity) -> LedgerRecord) {
        guard lock.withLock({ !finished }) else { return }
        queue.async { [self] in writer.append(make(identity)) }
        scheduleSync()
    }

    /// Starts sending, to each receiver configured.
    package func start() {
        for uploader in lock.withLock({ uploaders }) { uploader.start() }
    }

    /// Syncs and closes the ledger: what was written is durable when the process exits.
    package func finish() {
        lock.withLock { finished = true }
        queue.sync { writer.close() }
        for uploader in lock.withLock({ uploaders }) { uploader.stop() }
    }

    /// At most `syncInterval` after the first unsynced write, one fsync.
    private func scheduleSync() {
        guard lock.withLock({ defer { syncPending = true }; return !syncPending }) else { return }
        queue.asyncAfter(deadline: .now() + Self.syncInterval) { [self] in
            lock.withLock { syncPending = false }
            writer.sync()
        }
    }
}

extension PlayLedgerSink {
    /// The ledger a plan asks for, or nil when it is off. A folder that cannot be made or written
    /// is one error line, and playback goes on without a ledger.
    package static func make(plan: PlaybackPlan, backends: Backends, logger: Logger) -> PlayLedgerSink? {
        guard let directory = plan.proofOfPlay.resolvedDirectory() else { return nil }
        let digest = backends.digests()
        let report: @Sendable (LedgerNotice) -> Void = { notice in
            switch notice {
            case .info(let line): logger.info("\(line)")
            case .warning(let line): logger.warning("\(line)")
            case .error(let line): logger.error("\(line)")
            }
        }
        let writer: LedgerWriter
        do {
            writer = try LedgerWriter(folder: directory, maxBytes: plan.proofOfPlay.maxBytes, keepDays: plan.proofOfPlay.keepDays,
                                      digest: digest, notice: report)
        } catch {
            logger.error("\(error); playing without a play ledger")
            return nil
        }
        logger.info("ledger: proof of play in \(directory)")
        let remoteDigests = plan.cachedMedia.mapValues(\.sha256)
        let sink = PlayLedgerSink(writer: writer, folder: directory,
                                  identity: ItemIdentity(digest: digest, knownDigests: { remoteDigests[$0] ?? nil }), notice: report)
        if let upload = plan.proofOfPlay.upload {
            sink.send(through: transport(upload, client: backends.http(), logger: logger), settings: LedgerUploader.Settings(interval: upload.interval))
        }
        return sink
    }

    /// A recorder for one screen's events.
    package func recorder(plan: PlaybackPlan, screen: String, clock: PlaybackClock, wallClock: @escaping @Sendable () -> Date,
                          digest: any FileDigesting) -> PlayLedger {
        let fingerprint = ConfigFingerprint(path: plan.configFileInForce, digest: digest)
        return PlayLedger(sink: self, device: plan.device.resolvedID(), screen: screen, wallClock: wallClock,
                          clockNow: { clock.now().seconds }, configDigest: { fingerprint.current() })
    }

    /// The receiver's URL, credentials (read once, never logged) and CA bundle.
    private static func transport(_ upload: ProofOfPlayConfiguration.Upload, client: any HTTPTransferring, logger: Logger) -> HTTPLedgerTransport {
        var security = HTTPSecurity(caFile: upload.caFile)
        if let path = upload.credentials {
            switch CredentialsFile.read(path) {
            case .success(let (user, password)):
                security.credentials = HTTPCredentials(user: user, password: password)
                if let exposure = CredentialsFile.exposure(path) { logger.warning("ledger upload: credentials \(exposure)") }
            case .failure(let problem):
                logger.error("ledger upload: credentials \(path): \(problem.message); sending without them")
            }
        }
        return HTTPLedgerTransport(url: upload.url, security: security, timeout: .milliseconds(Int64((upload.timeout * 1000).rounded())),
                                   client: client)
    }
}
