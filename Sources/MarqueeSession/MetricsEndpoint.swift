import Foundation
import Logging
import MarqueeConfig
import MarqueeCore
import MarqueeMetrics
import MarqueePlayer

/// `/metrics` of one `marquee play` (config `metrics:`, `--metrics`): the series fed by each
/// screen's player's events and frame lateness (the main one's, and with `displays:` every other
/// screen playing a playlist, each under its name), and the HTTP server that serves them. A scrape runs on the
/// server's own thread and reads only snapshots that exist for the control socket already (the
/// player's status, the cache's, the broker's flag), so it never holds up the present thread. An
/// address that cannot be listened on is one error line and playback goes on without metrics.
package final class MetricsEndpoint: Sendable {
    package let metrics: PlaybackMetrics
    private let server: any MetricsServing

    private init(metrics: PlaybackMetrics, server: any MetricsServing) {
        self.metrics = metrics
        self.server = server
    }

    /// Nil without `metrics:`, or after one error line.
    package static func make(_ configuration: MetricsConfiguration?, player: QueuePlayer, screen: String, others: [(name: String, player: QueuePlayer)],
                             fleet: FleetSetup?, mqtt: MQTTEndpoint?, backends: Backends, logger: Logger) -> MetricsEndpoint? {
        guard let configuration else { return nil }
        let screens = [(name: screen, lateness: Optional(player.presentLateness))] + others.map { ($0.name, Optional($0.player.presentLateness)) }
        let metrics = PlaybackMetrics(version: MarqueeVersion.current, screens: screens,
                                      secondsSinceLaunch: { ProcessTimes.uptime() - ProcessTimes.launched })
        let otherPlayers = others.map { (name: $0.name, player: WeakPlayer($0.player)) }
        let page: @Sendable () -> String = { [weak player] in
            var reading = Self.reading(player?.status(), cache: fleet?.status(), mqttConnected: mqtt?.isConnected)
            for other in otherPlayers {
                if let status = other.player.player?.status() { reading.screens[other.name] = Self.screenReading(status) }
            }
            return metrics.exposition(reading)
        }
        do {
            let server = try backends.metricsServer(configuration.listen, page)
            logger.info("metrics: serving http://\(server.address)/metrics")
            return MetricsEndpoint(metrics: metrics, server: server)
        } catch {
            logger.error("metrics: \(error); playing on without metrics")
            return nil
        }
    }

    /// A screen's states, from its player's status.
    static func screenReading(_ status: PlayerStatusSnapshot) -> ScrapeReading.Screen {
        ScrapeReading.Screen(displayIsOn: status.details.displayIsOn, isStalled: status.playback.loadState == .stalled)
    }

    /// The states a scrape shows, from the snapshots `status` reads.
    static func reading(_ status: PlayerStatusSnapshot?, cache: StatusDocument.CacheStatus?, mqttConnected: Bool?) -> ScrapeReading {
        ScrapeReading(uptimeSeconds: ProcessTimes.uptime() - ProcessTimes.launched,
                      displayIsOn: status?.details.displayIsOn ?? true,
                      daypart: status?.details.isScheduled == true ? status?.details.daypart : nil,
                      isStalled: status?.playback.loadState == .stalled,
                      cache: cache.map { ScrapeReading.Cache(bytes: $0.bytes, downloading: $0.downloading.count) },
                      mqttConnected: mqttConnected)
    }

    /// Counts one event of `screen`'s player (nil: the main one's); on its event delivery thread.
    package func observe(_ event: PlayerEvent, at seconds: Double, screen: String? = nil) {
        metrics.observe(event, at: seconds, screen: screen)
    }

    /// Closes the socket, after the scrape in progress.
    package func stop() {
        server.stop()
    }
}

/// A server of `/metrics` (libmicrohttpd's in `marquee`): where it listens, and its end.
package protocol MetricsServing: AnyObject, Sendable {
    /// `127.0.0.1:9150`, `[::1]:9150`: the address bound.
    var address: String { get }
    func stop()
}

/// A screen's player as a scrape reads it: not kept alive by the metrics once the session ends.
private final class WeakPlayer: @unchecked Sendable {
    weak var player: QueuePlayer?

    init(_ player: QueuePlayer) {
        self.player = player
    }
}
