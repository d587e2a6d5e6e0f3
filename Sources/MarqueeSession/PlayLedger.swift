import Dispatch
import Foundation
import Logging
import MarqueeConfig
import MarqueeCore
import MarqueeLedger

/// Proof of play: turns the presented timeline's events into one ledger record per item shown,
/// written when it leaves the screen. It hears every event on the session's delivery thread (never
/// the present thread) and writes on a queue of its own, syncing at most `syncInterval` after a
/// write and at exit. Times become UTC once, at the item's start, with the wall clock then in
/// force; a step of the wall clock while it shows is recorded as `clockStep`, not folded in.
package final class PlayLedger: @unchecked Sendable {
    /// What is known of an item on screen when its record opens.
    private struct Shown {
        var index: Int
        var url: String
        var title: String?
        var id: String?
    }

    private struct OpenPlay {
        var shown: Shown
        var startClock: Double
        /// Milliseconds since 1970, on the wall clock in force at the start.
        var startUTC: Int64
        var daypart: String?
        var config: String?
    }

    private let writer: LedgerWriter
    /// Sends the records to the fleet's receiver (`proofOfPlay.upload`); nil: they stay here.
    package let uploader: LedgerUploader?
    private let queue = DispatchQueue(label: "marquee.ledger")
    private let lock = NSLock()
    private let device: String
    private let screen: String
    /// The wall clock (the virtual one's with `--clock fast`) and the player's clock, read together.
    private let wallClock: @Sendable () -> Date
    private let clockNow: @Sendable () -> Double
    private let configDigest: @Sendable () -> String?
    private let identity: ItemIdentity

    private var open: OpenPlay?
    /// Why the item on screen will end, when something other than its `itemEnded` says so first.
    private var cut: String?
    /// The item whose record closed when the display went off, reopened when it comes back on.
    private var dark: Shown?
    private var daypart: String?
    private var syncPending = false
    private var finished = false

    package static let syncInterval = 5.0
    /// A wall clock that moved this far from the presented timeline during a play was stepped.
    package static let clockStepThreshold = 0.5

    package init(writer: LedgerWriter, device: String, screen: String, wallClock: @escaping @Sendable () -> Date,
                 clockNow: @escaping @Sendable () -> Double, configDigest: @escaping @Sendable () -> String?, identity: ItemIdentity,
                 uploader: LedgerUploader? = nil) {
        self.writer = writer
        self.uploader = uploader
        if let uploader { writer.keeps = { uploader.holdsUnsent(day: $0) } }
        self.device = device
        self.screen = screen
        self.wallClock = wallClock
        self.clockNow = clockNow
        self.configDigest = configDigest
        self.identity = identity
    }

    /// Takes each event in presentation order, `t` its player-clock time.
    package func observe(_ event: PlayerEvent, at t: Double) {
        lock.withLock {
            guard !finished else { return }
            switch event {
            case .itemStarted(let index, let url, let title, let id):
                dark = nil
                cut = nil
                begin(Shown(index: index, url: url, title: title, id: id), at: t)
            case .itemEnded(let index, _, let reason, _):
                dark = nil
                guard let play = open, play.shown.index == index else { return }
                let ended = cut ?? (reason == .playbackEnded ? LedgerRecord.completed : reason.rawValue)
                close(play, at: t, ended: ended)
                cut = nil
            case .daypartChanged(let name, _, let immediately):
                if immediately && open != nil { cut = "daypartChanged" }
                daypart = name
            case .displayPowerChanged(on: false):
                guard let play = open else { return }
                close(play, at: t, ended: "displayOff")
                dark = play.shown
            case .displayPowerChanged(on: true):
                if let shown = dark { begin(shown, at: t) }
                dark = nil
            default:
                break
            }
        }
    }

    /// Syncs and closes the ledger: what was written is durable when the process exits.
    package func finish() {
        lock.withLock { finished = true }
        queue.sync { writer.close() }
        uploader?.stop()
    }

    /// Starts sending, when an upload is configured.
    package func start() {
        uploader?.start()
    }

    private func begin(_ shown: Shown, at t: Double) {
        open = OpenPlay(shown: shown, startClock: t, startUTC: utcMilliseconds(at: t), daypart: daypart, config: configDigest())
    }

    private func close(_ play: OpenPlay, at t: Double, ended: String) {
        open = nil
        let shownMilliseconds = max(0, UTCTimestamp.milliseconds(seconds: t - play.startClock))
        let endUTC = play.startUTC + shownMilliseconds
        let step = Double(utcMilliseconds(at: t) - endUTC) / 1000
        let stepped = abs(step) >= Self.clockStepThreshold ? step : nil
        let shown = play.shown
        let (device, screen) = (device, screen)
        queue.async { [self] in
            let record = LedgerRecord(id: UUID().uuidString.lowercased(), device: device, screen: screen, config: play.config,
                                      daypart: play.daypart, item: identity.name(url: shown.url, id: shown.id), index: shown.index,
                                      url: shown.url, title: shown.title, start: UTCTimestamp.text(milliseconds: play.startUTC),
                                      end: UTCTimestamp.text(milliseconds: endUTC), seconds: Double(shownMilliseconds) / 1000,
                                      ended: ended, clockStep: stepped)
            writer.append(record)
        }
        scheduleSync()
    }

    /// At most `syncInterval` after the first unsynced write, one fsync.
    private func scheduleSync() {
        guard !syncPending else { return }
        syncPending = true
        queue.asyncAfter(deadline: .now() + Self.syncInterval) { [weak self] in
            guard let self else { return }
            lock.withLock { syncPending = false }
            writer.sync()
        }
    }

    /// Player-clock time `t` on the wall clock read now.
    private func utcMilliseconds(at t: Double) -> Int64 {
        UTCTimestamp.milliseconds(seconds: wallClock().timeIntervalSince1970 - (clockNow() - t))
    }
}

extension PlayLedger {
    /// The ledger a plan asks for, or nil when it is off. A folder that cannot be made or written
    /// is one error line, and playback goes on without a ledger.
    package static func make(plan: PlaybackPlan, backends: Backends, clock: PlaybackClock, wallClock: @escaping @Sendable () -> Date,
                             screen: String, logger: Logger) -> PlayLedger? {
        guard let directory = plan.proofOfPlay.resolvedDirectory() else { return nil }
        let digest = backends.digests()
        let writer: LedgerWriter
        let report: @Sendable (LedgerNotice) -> Void = { notice in
            switch notice {
            case .info(let line): logger.info("\(line)")
            case .warning(let line): logger.warning("\(line)")
            case .error(let line): logger.error("\(line)")
            }
        }
        do {
            writer = try LedgerWriter(folder: directory, maxBytes: plan.proofOfPlay.maxBytes, keepDays: plan.proofOfPlay.keepDays,
                                      digest: digest, notice: report)
        } catch {
            logger.error("\(error); playing without a play ledger")
            return nil
        }
        let remoteDigests = plan.cachedMedia.mapValues(\.sha256)
        let configPath = plan.remote != nil ? (plan.cache.resolvedDirectory() as NSString).appendingPathComponent("config/remote.yaml") : plan.configPath
        let fingerprint = ConfigFingerprint(path: configPath, digest: digest)
        logger.info("ledger: proof of play in \(directory)")
        let uploader = plan.proofOfPlay.upload.map { upload in
            LedgerUploader(folder: directory, settings: uploadSettings(upload, logger: logger), client: backends.http(), notice: report)
        }
        return PlayLedger(writer: writer, device: plan.device.resolvedID(), screen: screen, wallClock: wallClock,
                          clockNow: { clock.now().seconds }, configDigest: { fingerprint.current() },
                          identity: ItemIdentity(digest: digest, knownDigests: { remoteDigests[$0] ?? nil }), uploader: uploader)
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
