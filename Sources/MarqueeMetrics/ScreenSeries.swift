import MarqueeCore
import Prometheus
import Synchronization

/// The series of one screen's player, each labelled `screen="NAME"`: what it showed and dropped,
/// its items, errors and stalls, how late its frames went up, and its stalled and display states.
/// A device with `displays:` has one per screen playing a playlist, so a dashboard sees each.
final class ScreenSeries: Sendable {
    let name: String
    let framesPresented: Counter
    let framesDropped: Counter
    let itemsStarted: Counter
    let itemsEnded: [FinishReason: Counter]
    let errors: Counter
    let stalls: Counter
    let stallSeconds: Counter
    let presentLateness: ValueHistogram
    let stalled: Gauge
    let displayOn: Gauge
    /// When the stall under way began (delivery thread and scrapes only).
    let stalledAt = Mutex<Double?>(nil)
    private let lateness: LatenessSamples?

    init(name: String, lateness: LatenessSamples?, registry: PrometheusCollectorRegistry) {
        self.name = name
        self.lateness = lateness
        let screen = ("screen", name)
        func counter(_ series: MetricNameDescriptor, _ labels: [(String, String)] = []) -> Counter {
            registry.makeCounter(descriptor: series, labels: labels + [screen])
        }
        framesPresented = counter(PlaybackMetrics.series("frames_presented", unit: "total", "Video frames put on screen."))
        framesDropped = counter(PlaybackMetrics.series("frames_dropped", unit: "total", "Video frames skipped because the next one was already due."))
        itemsStarted = counter(PlaybackMetrics.series("items_started", unit: "total", "Playlist items that came on screen (or began to be heard)."))
        // Every reason from the start, so a rate over them is defined before the first failure.
        let ended = PlaybackMetrics.series("items_ended", unit: "total",
                                           "Playlist items that ended: played out (playbackEnded), failed (playbackError) or left by a command (userExited).")
        itemsEnded = Dictionary(uniqueKeysWithValues: FinishReason.allCases.map { reason in (reason, counter(ended, [("reason", reason.rawValue)])) })
        errors = counter(PlaybackMetrics.series("errors", unit: "total", "Error events: failed items, video output and sound device problems."))
        stalls = counter(PlaybackMetrics.series("stalls", unit: "total", "Times playback stalled because its source ran dry."))
        stallSeconds = counter(PlaybackMetrics.series("stall_seconds", unit: "total", "Seconds spent stalled, counted when each stall ends."))
        presentLateness = registry.makeValueHistogram(descriptor: PlaybackMetrics.series("present_lateness", unit: "seconds",
                                                                                         "How long after its due time each frame went on screen, on the playback clock."),
                                                      labels: [screen], buckets: PlaybackMetrics.latenessBuckets)
        stalled = registry.makeGauge(descriptor: PlaybackMetrics.series("stalled", "1 while playback waits for its source to catch up, else 0."), labels: [screen])
        displayOn = registry.makeGauge(descriptor: PlaybackMetrics.series("display_on", "1 while the display is on, 0 after displayOff."), labels: [screen])
    }

    /// Moves the frames' lateness this screen's present thread recorded into the histogram.
    func takeLateness() {
        lateness?.drain { presentLateness.record(Double($0) / 1e9) }
    }

    /// A stall that ended (playthrough, or an item change) adds its seconds.
    func endStall(at seconds: Double) {
        guard let since = stalledAt.withLock({ stalledAt in defer { stalledAt = nil }; return stalledAt }) else { return }
        stallSeconds.increment(by: max(0, seconds - since))
    }

    /// The states a scrape reads for this screen.
    func show(_ state: ScrapeReading.Screen) {
        takeLateness()
        stalled.set(to: state.isStalled ? 1 : 0)
        displayOn.set(to: state.displayIsOn ? 1 : 0)
    }
}
