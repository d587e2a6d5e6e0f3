import ArgumentParser
import Foundation
import MarqueeCore
import MarqueeSession

@main
struct Marquee: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "marquee",
        abstract: "A kiosk and signage player for Linux: FFmpeg decoding, KMS/DRM video, ALSA audio, evdev keypads.",
        version: Marquee.version,
        subcommands: [PlayCommand.self, CtlCommand.self, CheckCommand.self, ScheduleCommand.self, ProbeCommand.self, ThumbnailCommand.self, BenchCommand.self, ReportCommand.self]
    )

    /// `marquee --version`, the status card and the status.
    static let version = MarqueeVersion.current

    /// Notes when marquee started (the first-frame line counts from it) before anything else runs.
    /// SIGPIPE is ignored: a reader of stderr or of the events pipe that goes away (`| head -1`, a
    /// journald restart) must not kill the player; the failed write says EPIPE instead.
    static func main() {
        _ = ProcessTimes.launched
        signal(SIGPIPE, SIG_IGN)
        main(nil)
    }
}
