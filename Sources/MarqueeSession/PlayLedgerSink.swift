import Dispatch
import Foundation
import Logging
import MarqueeConfig
import MarqueeCore
import MarqueeLedger

/// The device's one play ledger: every screen's records go through here into one writer (one chain
/// per day file), on a queue of its own, synced at most `syncInterval` after a write and at exit,
/// and to the receiver when an upload is configured. Never on a real-time thread.
package final class PlayLedgerSink: @unchecked Sendable {
    private let writer: LedgerWriter
    /// Sends the records to the fleet's receiver (`proofOfPlay.upload`); nil: they stay here.
    package let uploader: LedgerUploader?
    private let identity: ItemIdentity
    private let queue = DispatchQueue(label: "marquee.ledger")
    private let lock = NSLock()
    private var syncPending = false
    private var finished = false

    package static let syncInterval = 5.0

    package init(writer: LedgerWriter, identity: ItemIdentity, uploader: LedgerUploader? = nil) {
        self.writer = writer
        self.identity = identity
        self.uploader = uploader
        if let uploader { writer.keeps = { uploader.holdsUnsent(day: $0) } }
    }

    /// Writes the record `make` builds with the item's name (hashing a local file is done here,
    /// off the thread that heard the event).
    package func write(_ make: @escaping @Sendable (ItemIdentity) -> LedgerRecord) {
        guard lock.withLock({ !finished }) else { return }
        queue.async { [self] in writer.append(make(identity)) }
        scheduleSync()
    }

    /// Starts sending, when an upload is configured.
    package func start() {
        uploader?.start()
    }

    /// Syncs and closes the ledger: what was written is durable when the process exits.
    package func finish() {
        lock.withLock { finished = true }
        queue.sync { writer.close() }
        uploader?.stop()
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
        let uploader = plan.proofOfPlay.upload.map { upload in
            LedgerUploader(folder: directory, settings: uploadSettings(upload, logger: logger), client: backends.http(), notice: report)
        }
        return PlayLedgerSink(writer: writer, identity: ItemIdentity(digest: digest, knownDigests: { remoteDigests[$0] ?? nil }),
                              uploader: uploader)
    }

    /// A recorder for one screen's events.
    package func recorder(plan: PlaybackPlan, screen: String, clock: PlaybackClock, wallClock: @escaping @Sendable () -> Date,
                          digest: any FileDigesting) -> PlayLedger {
        let configPath = plan.remote != nil ? (plan.cache.resolvedDirectory() as NSString).appendingPathComponent("config/remote.yaml") : plan.configPath
        let fingerprint = ConfigFingerprint(path: configPath, digest: digest)
        return PlayLedger(sink: self, device: plan.device.resolvedID(), screen: screen, wallClock: wallClock,
                          clockNow: { clock.now().seconds }, configDigest: { fingerprint.current() })
    }

    /// The receiver's URL, credentials (read once, never logged) and CA bundle.
    private static func uploadSettings(_ upload: ProofOfPlayConfiguration.Upload, logger: Logger) -> LedgerUploader.Settings {
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
        return LedgerUploader.Settings(url: upload.url, security: security, interval: upload.interval,
                                       timeout: .milliseconds(Int64((upload.timeout * 1000).rounded())))
    }
}
