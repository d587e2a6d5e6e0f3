import Foundation
import Glibc
import MarqueeTestSupport
import Testing

/// `/metrics` of a playing `marquee`, scraped by a real Prometheus (Debian's `prometheus`, on
/// 127.0.0.1 with a one-second scrape interval and a storage folder of its own) and its HTTP API
/// asked for the series; the page checked by `promtool check metrics`. Frames are counted without
/// `--trace-frames`: the counters never depend on the events log's options.
@Suite(.serialized) struct MetricsCLITests {
    /// A config playing a.mp4 (2 s, looped) with `metrics.listen` on 127.0.0.1:`port`.
    private func config(port: UInt16) throws -> (folder: URL, path: String) {
        let media = try PlayCommandTests.workspace.get()
        let folder = try CLIFixtures.workspace(prefix: "marquee-metrics-cli-")
        let path = folder.appendingPathComponent("metrics.yaml").path
        try Data("""
            playlist:
              repeat: all
              items:
                - url: \(media.appendingPathComponent("a.mp4").path)
            metrics:
              listen: 127.0.0.1:\(port)
            """.utf8).write(to: URL(fileURLWithPath: path))
        return (folder, path)
    }

    private func play(_ arguments: [String], in folder: URL) throws -> PlayerRun {
        try PlayerRun(arguments: ["play"] + arguments + ["--output", "headless:160x90", "--audio", "null", "--control", "none",
                                                         "--clock", "realtime"], in: folder, traceFrames: false)
    }

    @Test func aRealPrometheusScrapesThePlayersSeriesAndPromtoolPassesThePage() throws {
        let port = try PrometheusServer.freePort()
        let (folder, path) = try config(port: port)
        let run = try play([path], in: folder)
        #expect(run.waitForStandardError(containing: "metrics: serving http://127.0.0.1:\(port)/metrics"), "\(run.standardError())")
        let prometheus = try PrometheusServer(scraping: "127.0.0.1:\(port)")
        defer { prometheus.stop() }

        // Scraped and up, with frames counted (no --trace-frames) and still counting.
        let presented = prometheus.waitFor("marquee_frames_presented_total") { ($0.first?.value ?? 0) >= 25 }
        #expect((presented.first?.value ?? 0) >= 25, "\(presented) \(prometheus.logText())")
        #expect(presented.first?.labels["job"] == "marquee")
        #expect(try prometheus.query(#"up{job="marquee"}"#).first?.value == 1)
        #expect((try prometheus.query("marquee_items_started_total").first?.value ?? 0) >= 1)
        #expect(try prometheus.query(#"marquee_items_ended_total{reason="playbackError"}"#).first?.value == 0)
        #expect((try prometheus.query("marquee_present_lateness_seconds_count").first?.value ?? 0) >= 25)
        #expect(try prometheus.query(#"marquee_present_lateness_seconds_bucket{le="+Inf"}"#).count == 1)
        #expect((try prometheus.query("marquee_first_frame_latency_seconds").first?.value ?? 0) > 0)
        #expect((try prometheus.query("marquee_uptime_seconds").first?.value ?? 0) > 0)
        #expect(try prometheus.query("marquee_display_on").first?.value == 1)
        #expect(try prometheus.query("marquee_build_info").first?.labels["version"]?.isEmpty == false)

        // The page as scraped passes Prometheus's own linter.
        let page = try PrometheusServer.curl(["--fail", "http://127.0.0.1:\(port)/metrics"])
        let check = try promtoolCheckMetrics(page)
        #expect(check.status == 0, "promtool: \(check.output)\n\(page)")
        #expect(check.output.isEmpty, "promtool: \(check.output)")

        // Anything else on the port is refused plainly.
        #expect(try PrometheusServer.curl(["--write-out", "%{http_code}", "--output", "/dev/null", "http://127.0.0.1:\(port)/"]) == "404")
        #expect(try PrometheusServer.curl(["--write-out", "%{http_code}", "--output", "/dev/null", "--data", "", "http://127.0.0.1:\(port)/metrics"]) == "405")
        // The frames of the events log were never asked for.
        #expect(!run.events().contains { $0["event"] as? String == "frame" })
    }

    /// With `displays:` every screen playing a playlist has its own series, by its name: two
    /// headless screens scraped by a real Prometheus each count their own frames and items.
    @Test func everyScreenOfDisplaysHasItsOwnSeries() throws {
        let port = try PrometheusServer.freePort()
        let media = try PlayCommandTests.workspace.get()
        let folder = try CLIFixtures.workspace(prefix: "marquee-metrics-screens-")
        let path = folder.appendingPathComponent("screens.yaml").path
        try Data("""
            displays:
              - name: left
                connector: HDMI-A-1
                mode: 160x90
                playlist: {items: [\(media.appendingPathComponent("a.mp4").path)]}
              - name: right
                connector: HDMI-A-2
                mode: 90x160
                playlist: {items: [\(media.appendingPathComponent("a.mp4").path), \(media.appendingPathComponent("a.mp4").path)]}
            metrics:
              listen: 127.0.0.1:\(port)
            """.utf8).write(to: URL(fileURLWithPath: path))
        let run = try PlayerRun(arguments: ["play", path, "--output", "headless", "--audio", "null", "--control", "none", "--input", "none",
                                            "--clock", "realtime"], in: folder, traceFrames: false)
        #expect(run.waitForStandardError(containing: "metrics: serving http://127.0.0.1:\(port)/metrics"), "\(run.standardError())")
        let prometheus = try PrometheusServer(scraping: "127.0.0.1:\(port)")
        defer { prometheus.stop() }
        let presented = prometheus.waitFor("marquee_frames_presented_total") { series in
            Set(series.compactMap { $0.value >= 25 ? $0.labels["screen"] : nil }) == ["left", "right"]
        }
        #expect(Set(presented.compactMap { $0.labels["screen"] }) == ["left", "right"], "\(presented) \(prometheus.logText())")
        #expect(presented.allSatisfy { $0.value >= 25 }, "\(presented)")
        for screen in ["left", "right"] {
            #expect((try prometheus.query(#"marquee_items_started_total{screen="\#(screen)"}"#).first?.value ?? 0) >= 1, "\(screen)")
            #expect((try prometheus.query(#"marquee_present_lateness_seconds_count{screen="\#(screen)"}"#).first?.value ?? 0) >= 25, "\(screen)")
            #expect(try prometheus.query(#"marquee_display_on{screen="\#(screen)"}"#).first?.value == 1, "\(screen)")
        }
        // The device's own series have no screen.
        #expect(try prometheus.query("marquee_uptime_seconds").first?.labels["screen"] == nil)
        let page = try PrometheusServer.curl(["--fail", "http://127.0.0.1:\(port)/metrics"])
        let check = try promtoolCheckMetrics(page)
        #expect(check.status == 0 && check.output.isEmpty, "promtool: \(check.output)\n\(page)")
        #expect(run.terminate() == 0)
    }

    @Test func aBusyAddressIsOneErrorLineAndPlaybackGoesOn() throws {
        let port = try PrometheusServer.freePort()
        let (folder, path) = try config(port: port)
        let first = try play([path], in: folder)
        #expect(first.waitForStandardError(containing: "metrics: serving http://127.0.0.1:\(port)/metrics"), "\(first.standardError())")
        // `--metrics` names the same address for a second player.
        let second = try play([path, "--metrics", "127.0.0.1:\(port)"], in: folder)
        #expect(second.waitForStandardError(containing: "metrics: cannot listen on 127.0.0.1:\(port): Address already in use; playing on without metrics"),
                "\(second.standardError())")
        #expect(second.waitForEvents(seconds: 20) { $0.contains { $0["event"] as? String == "itemStarted" } }, "\(second.standardError())")
        #expect(second.process.isRunning)
        #expect(second.standardError().components(separatedBy: "metrics:").count == 2, "\(second.standardError())")
        // `--metrics none` turns the config's server off.
        let third = try play([path, "--metrics", "none"], in: folder)
        #expect(third.waitForEvents(seconds: 20) { $0.contains { $0["event"] as? String == "itemStarted" } })
        #expect(!third.standardError().contains("metrics:"), "\(third.standardError())")
    }

    @Test func aMalformedMetricsFlagIsAUsageError() throws {
        let media = try PlayCommandTests.workspace.get()
        // Bounded: a player that took the flag would play on, and is stopped after 10 s.
        let run = try play([media.appendingPathComponent("a.mp4").path, "--metrics", "9150"], in: media)
        #expect(run.waitForExit(seconds: 10) == 64, "\(run.standardError())")
        #expect(run.standardError().contains("--metrics: '9150' is not an address to listen on"), "\(run.standardError())")
    }

    /// `promtool check metrics` over `page` on its standard input: the exit status and what it said.
    private func promtoolCheckMetrics(_ page: String) throws -> (status: Int32, output: String) {
        let promtool = URL(fileURLWithPath: "/usr/bin/promtool")
        guard FileManager.default.isExecutableFile(atPath: promtool.path) else {
            throw PrometheusServer.SetupError("promtool is not installed (apt-get install prometheus, or Scripts/install-dependencies.sh)")
        }
        let process = Process()
        process.executableURL = promtool
        process.arguments = ["check", "metrics"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(page.utf8))
        try input.fileHandleForWriting.close()
        let said = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: said, as: UTF8.self))
    }
}
