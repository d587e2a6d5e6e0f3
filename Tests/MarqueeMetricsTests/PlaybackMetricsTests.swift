import MarqueeCore
import MarqueeMetrics
import Testing

/// The series the player's events and the scrape's reading make, read back from the page as a
/// scraper reads it.
struct PlaybackMetricsTests {
    private func metrics(lateness: LatenessSamples? = nil) -> PlaybackMetrics {
        PlaybackMetrics(version: "9.9.9", lateness: lateness, secondsSinceLaunch: { 0.75 })
    }

    /// The value of the sample line `series` (name and labels exactly as written), nil when absent.
    private func value(_ series: String, in page: String) -> Double? {
        page.split(separator: "\n").lazy.compactMap { line -> Double? in
            guard line.hasPrefix(series + " ") else { return nil }
            return Double(line.dropFirst(series.count + 1))
        }.first
    }

    @Test func framesAreCountedPresentedAndDroppedAndTheFirstOneSetsTheLatency() {
        let metrics = metrics()
        let page0 = metrics.exposition(ScrapeReading(uptimeSeconds: 1))
        #expect(value(#"marquee_frames_presented_total{screen="main"}"#, in: page0) == 0)
        #expect(value("marquee_first_frame_latency_seconds", in: page0) == 0)
        for index in 0..<5 {
            metrics.observe(.frame(item: 0, pts: MediaTime(Int64(index), per: 30), time: .zero, dropped: index == 2), at: Double(index))
        }
        let page = metrics.exposition(ScrapeReading(uptimeSeconds: 2))
        #expect(value(#"marquee_frames_presented_total{screen="main"}"#, in: page) == 4)
        #expect(value(#"marquee_frames_dropped_total{screen="main"}"#, in: page) == 1)
        #expect(value("marquee_first_frame_latency_seconds", in: page) == 0.75)
        #expect(value("marquee_uptime_seconds", in: page) == 2)
        #expect(value(#"marquee_build_info{version="9.9.9"}"#, in: page) == 1)
    }

    @Test func itemsAreCountedByHowTheyEnded() {
        let metrics = metrics()
        metrics.observe(.itemStarted(index: 0, url: "a.mp4"), at: 0)
        metrics.observe(.itemEnded(index: 0, url: "a.mp4", reason: .playbackEnded, message: nil), at: 2)
        metrics.observe(.error(message: "b.mp4: no such file"), at: 2)
        metrics.observe(.itemEnded(index: 1, url: "b.mp4", reason: .playbackError, message: "no such file"), at: 2)
        metrics.observe(.itemStarted(index: 2, url: "c.mp4"), at: 2)
        metrics.observe(.itemEnded(index: 2, url: "c.mp4", reason: .userExited, message: nil), at: 3)
        metrics.observe(.itemEnded(index: 0, url: "a.mp4", reason: .playbackEnded, message: nil), at: 5)
        let page = metrics.exposition(ScrapeReading(uptimeSeconds: 5))
        #expect(value(#"marquee_items_started_total{screen="main"}"#, in: page) == 2)
        #expect(value(#"marquee_items_ended_total{reason="playbackEnded",screen="main"}"#, in: page) == 2)
        #expect(value(#"marquee_items_ended_total{reason="playbackError",screen="main"}"#, in: page) == 1)
        #expect(value(#"marquee_items_ended_total{reason="userExited",screen="main"}"#, in: page) == 1)
        #expect(value(#"marquee_errors_total{screen="main"}"#, in: page) == 1)
    }

    @Test func aStallCountsItsSecondsWhenItEndsOrTheItemChanges() {
        let metrics = metrics()
        metrics.observe(.playbackStalled, at: 10)
        // Still stalled: counted, its seconds not yet.
        var page = metrics.exposition(ScrapeReading(uptimeSeconds: 11, isStalled: true))
        #expect(value(#"marquee_stalls_total{screen="main"}"#, in: page) == 1)
        #expect(value(#"marquee_stall_seconds_total{screen="main"}"#, in: page) == 0)
        #expect(value(#"marquee_stalled{screen="main"}"#, in: page) == 1)
        metrics.observe(.loadStateChanged(.playthroughOK), at: 12.5)
        metrics.observe(.playbackStalled, at: 20)
        metrics.observe(.itemStarted(index: 1, url: "b.mp4"), at: 21)
        // Not a stall: the load state after a start that never stalled.
        metrics.observe(.loadStateChanged(.playthroughOK), at: 30)
        page = metrics.exposition(ScrapeReading(uptimeSeconds: 31))
        #expect(value(#"marquee_stalls_total{screen="main"}"#, in: page) == 2)
        #expect(value(#"marquee_stall_seconds_total{screen="main"}"#, in: page) == 3.5)
        #expect(value(#"marquee_stalled{screen="main"}"#, in: page) == 0)
    }

    @Test func downloadsAreCountedByResultAndTheCacheIsReadAtTheScrape() {
        let metrics = metrics()
        metrics.observe(.downloadProgress(url: "https://cdn/a.mp4", bytes: 10, total: 100, state: .downloading), at: 1)
        metrics.observe(.downloadProgress(url: "https://cdn/a.mp4", bytes: 100, total: 100, state: .cached), at: 2)
        metrics.observe(.downloadProgress(url: "https://cdn/b.mp4", bytes: 0, total: nil, state: .failed), at: 3)
        let page = metrics.exposition(ScrapeReading(uptimeSeconds: 4, cache: ScrapeReading.Cache(bytes: 4096, downloading: 2), mqttConnected: true))
        #expect(value(#"marquee_downloads_total{result="cached"}"#, in: page) == 1)
        #expect(value(#"marquee_downloads_total{result="failed"}"#, in: page) == 1)
        #expect(value("marquee_cache_bytes", in: page) == 4096)
        #expect(value("marquee_downloads_active", in: page) == 2)
        #expect(value("marquee_mqtt_connected", in: page) == 1)
    }

    @Test func theDisplayAndTheDaypartAreWhatTheReadingSays() {
        let metrics = metrics()
        var page = metrics.exposition(ScrapeReading(uptimeSeconds: 1, displayIsOn: false, daypart: "breakfast"))
        #expect(value(#"marquee_display_on{screen="main"}"#, in: page) == 0)
        #expect(value(#"marquee_schedule_daypart{daypart="breakfast"}"#, in: page) == 1)
        page = metrics.exposition(ScrapeReading(uptimeSeconds: 2, daypart: "lunch"))
        #expect(value(#"marquee_display_on{screen="main"}"#, in: page) == 1)
        #expect(value(#"marquee_schedule_daypart{daypart="lunch"}"#, in: page) == 1)
        #expect(!page.contains("breakfast"))
        page = metrics.exposition(ScrapeReading(uptimeSeconds: 3, daypart: nil))
        #expect(!page.contains(#"marquee_schedule_daypart{"#))
    }

    @Test func lateFramesFillTheHistogramBucketsTheirLatenessFallsIn() {
        let samples = LatenessSamples(capacity: 8)
        let metrics = metrics(lateness: samples)
        // 0.3 ms, 3 ms and 40 ms late; the frame event takes what was recorded before it.
        samples.record(nanoseconds: 300_000)
        samples.record(nanoseconds: 3_000_000)
        metrics.observe(.frame(item: 0, pts: .zero, time: .zero, dropped: false), at: 0)
        samples.record(nanoseconds: 40_000_000)
        let page = metrics.exposition(ScrapeReading(uptimeSeconds: 1))
        #expect(value(#"marquee_present_lateness_seconds_bucket{screen="main",le="0.0005"}"#, in: page) == 1)
        #expect(value(#"marquee_present_lateness_seconds_bucket{screen="main",le="0.004"}"#, in: page) == 2)
        #expect(value(#"marquee_present_lateness_seconds_bucket{screen="main",le="0.033"}"#, in: page) == 2)
        #expect(value(#"marquee_present_lateness_seconds_bucket{screen="main",le="0.05"}"#, in: page) == 3)
        #expect(value(#"marquee_present_lateness_seconds_bucket{screen="main",le="+Inf"}"#, in: page) == 3)
        #expect(value(#"marquee_present_lateness_seconds_count{screen="main"}"#, in: page) == 3)
        #expect(abs((value(#"marquee_present_lateness_seconds_sum{screen="main"}"#, in: page) ?? 0) - 0.0433) < 1e-9)
    }

    /// Each screen's events count under its own name, and each screen's states are its own.
    @Test func eachScreenCountsItsOwnEventsAndShowsItsOwnStates() {
        let metrics = PlaybackMetrics(version: "9.9.9", screens: [(name: "left", lateness: nil), (name: "right", lateness: nil)],
                                      secondsSinceLaunch: { 0.5 })
        metrics.observe(.frame(item: 0, pts: .zero, time: .zero, dropped: false), at: 0)
        metrics.observe(.frame(item: 0, pts: .zero, time: .zero, dropped: false), at: 0, screen: "right")
        metrics.observe(.frame(item: 0, pts: .zero, time: .zero, dropped: false), at: 0.04, screen: "right")
        metrics.observe(.frame(item: 0, pts: .zero, time: .zero, dropped: true), at: 0.08, screen: "right")
        metrics.observe(.playbackStalled, at: 1, screen: "right")
        metrics.observe(.frame(item: 0, pts: .zero, time: .zero, dropped: false), at: 0, screen: "nowhere")
        let page = metrics.exposition(ScrapeReading(uptimeSeconds: 2, displayIsOn: false,
                                                    screens: ["right": ScrapeReading.Screen(displayIsOn: true, isStalled: true)]))
        #expect(value(#"marquee_frames_presented_total{screen="left"}"#, in: page) == 1)
        #expect(value(#"marquee_frames_presented_total{screen="right"}"#, in: page) == 2)
        #expect(value(#"marquee_frames_dropped_total{screen="left"}"#, in: page) == 0)
        #expect(value(#"marquee_frames_dropped_total{screen="right"}"#, in: page) == 1)
        #expect(value(#"marquee_stalls_total{screen="left"}"#, in: page) == 0)
        #expect(value(#"marquee_stalls_total{screen="right"}"#, in: page) == 1)
        // The main (first) screen takes the reading's own states, another its entry.
        #expect(value(#"marquee_display_on{screen="left"}"#, in: page) == 0)
        #expect(value(#"marquee_display_on{screen="right"}"#, in: page) == 1)
        #expect(value(#"marquee_stalled{screen="left"}"#, in: page) == 0)
        #expect(value(#"marquee_stalled{screen="right"}"#, in: page) == 1)
        // An event of a screen with no series is not counted anywhere.
        #expect(!page.contains("nowhere"))
    }

    @Test func everySeriesHasHelpAndAType() {
        let page = metrics().exposition(ScrapeReading(uptimeSeconds: 1, daypart: "lunch"))
        let names = Set(page.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            String(line.prefix { $0 != "{" && $0 != " " })
        })
        for name in names {
            let family = ["_bucket", "_sum", "_count"].reduce(name) { $0.hasSuffix($1) && name.hasPrefix("marquee_present") ? String($0.dropLast($1.count)) : $0 }
            #expect(page.contains("# HELP \(family) "), "\(family)")
            #expect(page.contains("# TYPE \(family) "), "\(family)")
        }
        #expect(names.count >= 20, "\(names.sorted())")
    }
}
