import Foundation
import Logging
import MarqueeConfig
import MarqueeCore
import MarqueeMetrics
import MarqueePlayer

/// `/metrics` of one `marquee play` (config `metrics:`, `--metrics`): the series fed by the main
/// player's events and frame lateness, and the HTTP server that serves them. A scrape runs on the
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
    package static func make(_ configuration: MetricsConfiguration?, player: QueuePlayer, fleet: FleetSetup?, mqtt: MQTTEndpoint?,
                             backends: Backends, logger: Logger) -> MetricsEndpoint? {
        guard let configuration else { return nil }
        let metrics = PlaybackMetrics(version: MarqueeVersion.current, lateness: player.presentLateness,
                                      secondsSinceLaunch: { ProcessTimes.uptime() - ProcessTimes.launched })
        let page: @Sendable () -> String = { [weak player] in
            metrics.exposition(Self.reading(player?.status(), cache: fleet?.status(), mqttConnected: mqtt?.isConnected))
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

    /// The states a scrape shows, from the snapshots `status` reads.
    static func reading(_ status: PlayerStatusSnapshot?, cache: StatusDocument.CacheStatus?, mqttConnected: Bool?) -> ScrapeReading {
        ScrapeReading(uptimeSeconds: ProcessTimes.uptime() - ProcessTimes.launched,
                      displayIsOn: status?.details.displayIsOn ?? true,
                      daypart: status?.details.isScheduled == true ? status?.details.daypart : nil,
                      isStalled: status?.playback.loadState == .stalled,
                      cache: cache.map { ScrapeReading.Cache(bytes: $0.bytes, downloading: $0.downloading.count) },
                      mqttConnected: mqttConnected)
    }

    /// Counts one event; on the event delivery thread.
    package func observe(_ event: PlayerEvent, at seconds: Double) {
        metrics.observe(event, at: seconds)
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
