import ArgumentParser

@main
struct Marquee: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "marquee",
        abstract: "A kiosk and signage player for Linux: FFmpeg decoding, KMS/DRM video, ALSA audio, evdev keypads.",
        subcommands: [PlayCommand.self, CheckCommand.self, ProbeCommand.self, ThumbnailCommand.self, BenchCommand.self]
    )

    /// Notes when marquee started (the first-frame line counts from it) before anything else runs.
    static func main() {
        _ = ProcessTimes.launched
        main(nil)
    }
}
