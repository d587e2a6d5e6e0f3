import MarqueeCore
import Prometheus
import Synchronization

/// Every series `/metrics` serves, in Prometheus's text exposition format (swift-prometheus
/// writes it). Happenings are counted from the player's events as the event delivery thread hands
/// them over (`observe`), never on the present thread; states are read at the scrape
/// (`exposition(reading:)`) from snapshots that already exist. How late frames went up comes from
/// the present thread's `LatenessSamples`, drained here off that thread.
public final class PlaybackMetrics: Sendable {
    /// Upper bounds of the present-lateness buckets, in seconds: a frame slot at 60 fps is 16.7 ms,
    /// at 30 fps 33.3 ms; past a quarter second the scheduler calls it a stall.
    public static let latenessBuckets: [Double] = [0.0005, 0.001, 0.002, 0.004, 0.008, 0.016, 0.033, 0.05, 0.1, 0.25]

    let registry = PrometheusCollectorRegistry()
    let framesPresented: Counter
    let framesDropped: Counter
    let itemsStarted: Counter
    let itemsEnded: [FinishReason: Counter]
    let errors: Counter
    let stalls: Counter
    let stallSeconds: Counter
    let downloadsCached: Counter
    let downloadsFailed: Counter
    let firstFrameLatency: Gauge
    let presentLateness: ValueHistogram
    private let uptime: Gauge
    private let stalled: Gauge
    private let displayOn: Gauge
    private let cacheBytes: Gauge
    private let downloadsActive: Gauge
    private let mqttConnected: Gauge
    /// What the events told so far that a later event needs (when a stall began, whether the
    /// first frame was seen), and the daypart series shown; only the delivery thread and scrapes
    /// take it.
    let folded = Mutex(Folded())
    /// Seconds since marquee's main began, read when the first frame is seen.
    let secondsSinceLaunch: @Sendable () -> Double
    private let lateness: LatenessSamples?

    struct Folded {
        var stalledAt: Double?
        var sawFirstFrame = false
        var daypart: (name: String, gauge: Gauge)?
    }

    /// `version`: `marquee_build_info`'s label. `lateness`: the main player's samples (nil: no
    /// histogram observations, e.g. in tests of the events alone).
    public init(version: String, lateness: LatenessSamples?, secondsSinceLaunch: @escaping @Sendable () -> Double) {
        self.lateness = lateness
        self.secondsSinceLaunch = secondsSinceLaunch
        let registry = registry
        framesPresented = registry.makeCounter(descriptor: Self.series("frames_presented", unit: "total", "Video frames put on screen."))
        framesDropped = registry.makeCounter(descriptor: Self.series("frames_dropped", unit: "total", "Video frames skipped because the next one was already due."))
        itemsStarted = registry.makeCounter(descriptor: Self.series("items_started", unit: "total", "Playlist items that came on screen (or began to be heard)."))
        // Every reason from the start, so a rate over them is defined before the first failure.
        let ended = Self.series("items_ended", unit: "total",
                                "Playlist items that ended: played out (playbackEnded), failed (playbackError) or left by a command (userExited).")
        itemsEnded = Dictionary(uniqueKeysWithValues: FinishReason.allCases.map { reason in
            (reason, registry.makeCounter(descriptor: ended, labels: [("reason", reason.rawValue)]))
        })
        errors = registry.makeCounter(descriptor: Self.series("errors", unit: "total", "Error events: failed items, video output and sound device problems."))
        stalls = registry.makeCounter(descriptor: Self.series("stalls", unit: "total", "Times playback stalled because its source ran dry."))
        stallSeconds = registry.makeCounter(descriptor: Self.series("stall_seconds", unit: "total", "Seconds spent stalled, counted when each stall ends."))
        let downloads = Self.series("downloads", unit: "total", "Media downloads into the cache that finished: verified and kept (cached) or given up (failed).")
        downloadsCached = registry.makeCounter(descriptor: downloads, labels: [("result", "cached")])
        downloadsFailed = registry.makeCounter(descriptor: downloads, labels: [("result", "failed")])
        firstFrameLatency = registry.makeGauge(descriptor: Self.series("first_frame_latency", unit: "seconds",
                                                                       "Seconds from marquee's start to its first frame on screen (0 until then)."))
        presentLateness = registry.makeValueHistogram(descriptor: Self.series("present_lateness", unit: "seconds",
                                                                              "How long after its due time each frame went on screen, on the playback clock."),
                                                      buckets: Self.latenessBuckets)
        uptime = registry.makeGauge(descriptor: Self.series("uptime", unit: "seconds", "Seconds since marquee started."))
        stalled = registry.makeGauge(descriptor: Self.series("stalled", "1 while playback waits for its source to catch up, else 0."))
        displayOn = registry.makeGauge(descriptor: Self.series("display_on", "1 while the display is on, 0 after displayOff."))
        cacheBytes = registry.makeGauge(descriptor: Self.series("cache", unit: "bytes", "Bytes of verified media in the cache (0 without a cache)."))
        downloadsActive = registry.makeGauge(descriptor: Self.series("downloads_active", "Downloads into the cache under way or waiting for a retry."))
        mqttConnected = registry.makeGauge(descriptor: Self.series("mqtt_connected", "1 while the MQTT broker has accepted the connection, else 0 (also without mqtt:)."))
        registry.makeGauge(descriptor: Self.series("build_info", "The running marquee's version, always 1."), labels: [("version", version)]).set(to: 1)
    }

    /// `marquee_NAME_UNIT`, with its help line.
    static func series(_ name: String, unit: String = "", _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "marquee", metricName: name, unitName: unit, helpText: help)
    }

    /// Moves the frames' lateness the present thread recorded into the histogram.
    func takeLateness() {
        lateness?.drain { presentLateness.record(Double($0) / 1e9) }
    }

    /// The whole page, with the states of `reading`.
    public func exposition(_ reading: ScrapeReading) -> String {
        takeLateness()
        uptime.set(to: reading.uptimeSeconds)
        stalled.set(to: reading.isStalled ? 1 : 0)
        displayOn.set(to: reading.displayIsOn ? 1 : 0)
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
