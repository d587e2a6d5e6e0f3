import Foundation
import Logging
import MarqueeConfig
import MarqueeCore

/// Polls the server for the playlist config (`source:`) on a thread of its own: every `interval`
/// seconds, give or take a tenth at random (forty screens booted together do not ask together),
/// with `If-None-Match` and `If-Modified-Since` from the config playing, so an unchanged one costs
/// a 304. A new one is checked with the same loader as `marquee check`: an invalid one is logged
/// with line and column (as `URL:LINE:COLUMN: error: ...`) and the config playing goes on; a valid
/// one is handed on. A server that cannot be reached is said once per outage.
package final class RemoteConfigPoller: @unchecked Sendable {
    /// What was fetched: its text, the validators the server sent with it, and the checked result.
    package struct Fetched: Sendable {
        package var text: String
        package var etag: String?
        package var lastModified: String?
        package var result: ConfigurationLoadResult
    }

    private let source: RemoteSourceConfiguration
    private let transport: any HTTPTransferring
    private let security: HTTPSecurity
    /// Where file paths in a fetched config resolve (fonts, credentials): the bootstrap's folder.
    private let localFolder: URL
    private let logger: Logger
    private let onConfig: @Sendable (Fetched) -> Void
    /// The server answered with the config playing (a 304, or the same text).
    private let onUnchanged: @Sendable () -> Void
    /// Tells the status card why nothing plays yet (no config has ever been fetched).
    private let note: @Sendable (String?) -> Void
    private let condition = MonotonicCondition()
    /// Under `condition`.
    private var wakeEarly = false
    private var stopped = false
    private var thread: Thread?
    /// Poller thread only: the validators and text of the config accepted last.
    private var current: (text: String, etag: String?, lastModified: String?)?
    /// Poller thread only: the text refused last, so a server repeating it is not logged each poll.
    private var refused: String?
    /// Poller thread only: the outage's first error, said once.
    private var outage: String?
    /// Poller thread only: a config has been accepted (fetched, or read from the store at boot).
    private var hasConfig: Bool

    /// Bodies larger than this are refused: a config is text, not media.
    package static let maxConfigBytes = 4 << 20

    package init(source: RemoteSourceConfiguration, transport: any HTTPTransferring, security: HTTPSecurity, localFolder: URL,
         stored: (text: String, etag: String?, lastModified: String?)?, logger: Logger,
         note: @escaping @Sendable (String?) -> Void, onUnchanged: @escaping @Sendable () -> Void,
         onConfig: @escaping @Sendable (Fetched) -> Void) {
        self.onUnchanged = onUnchanged
        self.source = source
        self.transport = transport
        self.security = security
        self.localFolder = localFolder
        self.logger = logger
        self.note = note
        self.onConfig = onConfig
        current = stored
        hasConfig = stored != nil
    }

    private var label: String { CredentialRedaction.redacted(source.url.absoluteString) }

    package func start() {
        let thread = Thread { [self] in run() }
        thread.name = "marquee-source"
        self.thread = thread
        thread.start()
    }

    /// Asks the server now (a `reload`, SIGHUP); returns at once.
    package func pollNow() {
        condition.withLock {
            wakeEarly = true
            condition.signal()
        }
    }

    package func stop() {
        condition.withLock {
            stopped = true
            condition.signal()
        }
    }

    /// Reloads (SIGHUP, `reload` over the socket or MQTT) ask the server out of turn at most this
    /// often: the first at once, a burst after it once more at the end of the window. 100 SIGHUPs
    /// in a second were 79 GETs; now they are two, and an operator's next reload is not lost.
    package static let reloadSpacing = Duration.seconds(5)

    private func run() {
        // When a reload last made the server be asked out of turn.
        var lastAsked: ContinuousClock.Instant?
        var asked = false
        while condition.withLock({ !stopped }) {
            poll()
            if asked { lastAsked = .now }
            let jitter = Double.random(in: 0.9...1.1)
            let deadline = ContinuousClock.now + .seconds(source.interval * jitter)
            asked = condition.withLock { () -> Bool in
                var reloadPending = false
                while !stopped {
                    if wakeEarly {
                        wakeEarly = false
                        reloadPending = true
                    }
                    if reloadPending {
                        let allowedAt = lastAsked.map { $0 + Self.reloadSpacing } ?? .now
                        if ContinuousClock.now >= allowedAt { return true }
                        // Folded into one fetch at the window's end (or the regular poll, if sooner).
                        if !condition.wait(until: min(allowedAt, deadline)) && ContinuousClock.now >= deadline { return false }
                        continue
                    }
                    if !condition.wait(until: deadline) { return false }
                }
                return false
            }
        }
    }

    private func poll() {
        var request = HTTPRequest(url: source.url, security: security)
        request.ifNoneMatch = current?.etag
        request.ifModifiedSince = current?.lastModified
        let response: HTTPResponse
        do {
            response = try transport.fetch(request, maxBytes: Self.maxConfigBytes)
        } catch {
            fail(error.description)
            return
        }
        if let outage {
            logger.notice("source: \(label) answers again (it had failed: \(outage))")
            self.outage = nil
        }
        guard !response.head.isNotModified else {
            logger.debug("source: \(label) not modified")
            onUnchanged()
            return
        }
        guard let text = String(data: response.body, encoding: .utf8) else {
            fail("the config is not UTF-8 text")
            return
        }
        if text == current?.text {
            // A server without validators sends the same text again: nothing changes.
            current = (text, response.head.etag, response.head.lastModified)
            onUnchanged()
            return
        }
        let result = ConfigurationLoader.load(fetchedText: text, from: source.url, localFolder: localFolder)
        guard result.configuration != nil, !result.hasErrors else {
            if text != refused {
                result.errors.forEach { Console.shared.log($0.description) }
                logger.error("source: \(label) rejected (\(result.errors.count) error\(result.errors.count == 1 ? "" : "s")); \(hasConfig ? "the config playing goes on" : "nothing plays until a valid one is fetched")")
                refused = text
            }
            if !hasConfig { note("The config at \(label) has errors; waiting for a valid one") }
            return
        }
        refused = nil
        current = (text, response.head.etag, response.head.lastModified)
        hasConfig = true
        logger.info("source: \(label) changed\(response.head.etag.map { " (ETag \($0))" } ?? ""); its media are fetched before it plays")
        onConfig(Fetched(text: text, etag: response.head.etag, lastModified: response.head.lastModified, result: result))
    }

    private func fail(_ reason: String) {
        guard outage == nil else { return }
        outage = reason
        let interval = String(format: "%g", source.interval)
        logger.error("source: \(label): \(reason); \(hasConfig ? "the config playing goes on" : "nothing to play until it answers"); trying again every \(interval) s")
        if !hasConfig { note("No config yet: \(label): \(reason); trying again every \(interval) s") }
    }
}
