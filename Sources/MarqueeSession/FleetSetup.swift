import Foundation
import Logging
import MarqueeConfig
import MarqueeCore
import MarqueeFleet
import MarqueePlayer

/// The parts of a run whose content comes over HTTP: the media cache and its downloads (for any
/// config naming remote media that are not streams), and with `source:` the poller and the store
/// of the last good fetched config. Made before the player; `start` once it runs.
package final class FleetSetup: @unchecked Sendable {
    package let stage: CachedPlanStage?
    /// The server's config is polled by this; nil without `source:` (or without a cache to keep it).
    private(set) var poller: RemoteConfigPoller?
    private let store: RemoteConfigStore?
    private let plan: PlaybackPlan
    private let logger: Logger
    private let transport: any HTTPTransferring
    /// Credentials and CA bundle for the source's own origin; other hosts get neither.
    private let sourceSecurity: HTTPSecurity

    /// Nothing to do (no remote media, no source): nil.
    package static func make(plan: PlaybackPlan, backends: Backends, post: @escaping @Sendable (PlayerEvent) -> Void, logger: Logger) -> FleetSetup? {
        guard plan.remote != nil || !plan.cachedMedia.isEmpty else { return nil }
        return FleetSetup(plan: plan, backends: backends, post: post, logger: logger)
    }

    /// The media cache alone, for a control client's `load` of remote media in a run that has no
    /// cache of its own (its config named none).
    package static func forLoads(plan: PlaybackPlan, backends: Backends, post: @escaping @Sendable (PlayerEvent) -> Void, logger: Logger) -> FleetSetup {
        FleetSetup(plan: plan, backends: backends, post: post, logger: logger)
    }

    private init(plan: PlaybackPlan, backends: Backends, post: @escaping @Sendable (PlayerEvent) -> Void, logger: Logger) {
        self.plan = plan
        transport = backends.http()
        self.logger = logger
        var security = HTTPSecurity(caFile: plan.remote?.caFile)
        if let path = plan.remote?.credentials {
            switch CredentialsFile.read(path) {
            case .success(let (user, password)):
                security.credentials = HTTPCredentials(user: user, password: password)
                if let exposure = CredentialsFile.exposure(path) { logger.warning("source: credentials \(exposure)") }
                if let url = plan.remote?.url, url.scheme?.lowercased() == "http" {
                    logger.warning("source: \(CredentialRedaction.redacted(url.absoluteString)): the credentials go over plain http, readable by anyone on the network; use https")
                }
            case .failure(let problem): logger.error("source: credentials \(path): \(problem.message); asking without them")
            }
        }
        sourceSecurity = security
        let directory = plan.cache.resolvedDirectory()
        let digest = backends.digests()
        do {
            let cache = try MediaCache(directory: directory, maxBytes: plan.cache.maxBytes ?? .max, digest: digest,
                                       log: { [logger] in logger.error("\($0)") }, warn: { [logger] in logger.warning("\($0)") })
            let options = CacheFiller.Options(concurrency: plan.cache.downloads, maxBytesPerSecond: plan.cache.maxRate)
            let filler = CacheFiller(cache: cache, transport: transport, options: options,
                                     log: { [logger] in logger.error("\($0)") }, warn: { [logger] in logger.warning("\($0)") })
            let origin = plan.remote.map { Self.origin(of: $0.url) }
            stage = CachedPlanStage(cache: cache, filler: filler, security: { [security] url in
                origin != nil && Self.origin(of: url) == origin ? security : HTTPSecurity()
            }, post: post, logger: logger)
            store = RemoteConfigStore(cacheDirectory: directory, digest: digest)
        } catch {
            logger.error("\(error); remote media stream instead\(plan.remote == nil ? "" : ", and the fetched config is not kept")")
            stage = nil
            store = nil
        }
    }

    /// scheme://host:port, the unit credentials are scoped to (as a browser scopes them).
    private static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }

    /// The fetched config kept from an earlier run, as a plan, when there is a valid one.
    package func storedPlan(folder: URL) -> (plan: PlaybackPlan, text: String, saved: RemoteConfigStore.Saved)? {
        guard let remote = plan.remote, let (text, saved) = store?.load(for: remote.url) else { return nil }
        let result = ConfigurationLoader.load(fetchedText: text, from: remote.url, localFolder: folder)
        guard let fetched = try? PlaybackPlan.fromConfig(result, path: remote.url.absoluteString) else {
            logger.warning("source: the config kept from \(CredentialRedaction.redacted(remote.url.absoluteString)) no longer passes its checks; not played")
            return nil
        }
        return (fetched, text, saved)
    }

    /// Starts polling (with `source:`): each valid config goes to `reloader`, and is kept in the
    /// store once its media are in place and it plays.
    package func startPolling(reloader: PlanIntake, player: QueuePlayer, folder: URL,
                      stored: (text: String, etag: String?, lastModified: String?)?) {
        guard let remote = plan.remote else { return }
        let store = self.store
        let logger = self.logger
        let poller = RemoteConfigPoller(source: remote, transport: transport, security: sourceSecurity, localFolder: folder,
                                        stored: stored, logger: logger, note: { [weak player] in player?.setContentNote($0) },
                                        onUnchanged: { [stage] in stage?.retryFailed() },
                                        onConfig: { fetched in
            do {
                let next = try PlaybackPlan.fromConfig(fetched.result, path: remote.url.absoluteString)
                reloader.adopt(fetched: next, from: CredentialRedaction.redacted(remote.url.absoluteString), accepted: {
                    do {
                        try store?.save(fetched.text, from: remote.url, etag: fetched.etag, lastModified: fetched.lastModified)
                    } catch {
                        logger.error("source: cannot keep the fetched config in the cache: \(error)")
                    }
                })
            } catch {
                logger.error("source: \(error)")
            }
        })
        self.poller = poller
        poller.start()
    }

    /// `status`'s `cache` object; nil without a cache.
    package func status() -> StatusDocument.CacheStatus? {
        stage?.status()
    }

    package func stop() {
        poller?.stop()
        stage?.stop()
    }
}
