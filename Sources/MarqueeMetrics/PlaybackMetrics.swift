import MarqueeCore
import Prometheus
import Synchronization

/// Every series `/metrics` serves, in Prometheus's text exposition format (swift-prometheus
/// writes it). Happenings are counted from the players' events as their event delivery threads
/// hand them over (`observe`), never on a present thread; states are read at the scrape
/// (`exposition(reading:)`) from snapshots that already exist. How late frames went up comes from
/// each present thread's `LatenessSamples`, drained here off that thread. A player's series are
/// its screen's (`screen="NAME"`: `main` with one display); the device's (downloads, cache, MQTT,
/// uptime, the daypart, build info) have no screen.
public final class PlaybackMetrics: Sendable {
    /// Upper bounds of the present-lateness buckets, in seconds: a frame slot at 60 fps is 16.7 ms,
    /// at 30 fps 33.3 ms; past a quarter second the scheduler calls it a stall.
    public static let latenessBuckets: [Double] = [0.0005, 0.001, 0.002, 0.004, 0.008, 0.016, 0.033, 0.05, 0.1, 0.25]

    let registry = PrometheusCollectorRegistry()
    /// Each screen's own series, by name; the first is the main screen's (events given no
    /// screen count there).
    let screens: [String: ScreenSeries]
    let mainScreen: String
    let downloadsCached: Counter
    let downloadsFailed: Counter
    let firstFrameLatency: Gauge
    private let uptime: Gauge
    private let cacheBytes: Gauge
    private let downloadsActive: Gauge
    private let mqttConnected: Gauge
    /// What the events told so far that a later event needs (whether the first frame was seen),
    /// and the daypart series shown; only the delivery threads and scrapes take it.
    let folded = Mutex(Folded())
    /// Seconds since marquee's main began, read when the first frame is seen.
    let secondsSinceLaunch: @Sendable () -> Double

    struct Folded {
        var sawFirstFrame = false
        var daypart: (name: String, gauge: Gauge)?
    }

    /// One screen, `main`: the single display's player and its frames' lateness (nil: no histogram
    /// observations, e.g. in tests of the events alone).
    public convenience init(version: String, lateness: LatenessSamples?, secondsSinceLaunch: @escaping @Sendable () -> Double) {
        self.init(version: version, screens: [(name: "main", lateness: lateness)], secondsSinceLaunch: secondsSinceLaunch)
    }

    /// `version`: `marquee_build_info`'s label. `screens`: each screen playing a playlist, the main
    /// one first, with its present thread's lateness samples.
    public init(version: String, screens: [(name: String, lateness: LatenessSamples?)], secondsSinceLaunch: @escaping @Sendable () -> Double) {
        precondition(!screens.isEmpty, "at least the main screen")
        self.secondsSinceLaunch = secondsSinceLaunch
        let registry = registry
        mainScreen = screens[0].name
        self.screens = Dictionary(screens.map { ($0.name, ScreenSeries(name: $0.name, lateness: $0.lateness, registry: registry)) }) { first, _ in first }
        let downloads = Self.series("downloads", unit: "total", "Media downloads into the cache that finished: verified and kept (cached) or given up (failed).")
        downloadsCached = registry.makeCounter(descriptor: downloads, labels: [("result", "cached")])
        downloadsFailed = registry.makeCounter(descriptor: downloads, labels: [("result", "failed")])
        firstFrameLatency = registry.makeGauge(descriptor: Self.series("first_frame_latency", unit: "seconds",
                                                                       "Seconds from marquee's start to its first frame on screen (0 until then)."))
        uptime = registry.makeGauge(descriptor: Self.series("uptime", unit: "seconds", "Seconds since marquee started."))
        cacheBytes = registry.makeGauge(descriptor: Self.series("cache", unit: "bytes", "Bytes of verified media in the cache (0 without a cache)."))
        downloadsActive = registry.makeGauge(descriptor: Self.series("downloads_active", "Downloads into the cache under way or waiting for a retry."))
        mqttConnected = registry.makeGauge(descriptor: Self.series("mqtt_connected", "1 while the MQTT broker has accepted the connection, else 0 (also without mqtt:)."))
        registry.makeGauge(descriptor: Self.series("build_info", "The running marquee's version, always 1."), labels: [("version", version)]).set(to: 1)
    }

    /// `marquee_NAME_UNIT`, with its help line.
    static func series(_ name: String, unit: String = "", _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "marquee", metricName: name, unitName: unit, helpText: help)
    }

    /// The whole page, with the states of `reading`.
    public func exposition(_ reading: ScrapeReading) -> String {
        for (name, series) in screens {
            series.show(reading.screens[name] ?? (name == mainScreen ? reading.main : ScrapeReading.Screen()))
        }
        uptime.set(to: reading.uptimeSeconds)
        cacheBytes.set(to: Double(reading.cache?.bytes ?? 0))
        downloadsActive.set(to: Double(reading.cache?.downloading ?? 0))
        mqttConnected.set(to: reading.mqttConnected == true ? 1 : 0)
        showDaypart(reading.daypart)
        return registry.emitToString()
    }

    /// `marquee_schedule_daypart{daypart="lunch"} 1` while a daypart plays; no series otherwise.
    private func showDaypart(_ name: String?) {
        folded.withLock { folded in
            guard folded.daypart?.name != name else { return }
            if let shown = folded.daypart { registry.unregisterGauge(shown.gauge) }
            folded.daypart = name.map { name in
                let gauge = registry.makeGauge(descriptor: Self.series("schedule_daypart", "The daypart the timetable plays now, as a label; no series when nothing is scheduled."),
                                               labels: [("daypart", name)])
                gauge.set(to: 1)
                return (name, gauge)
            }
        }
    }
}
