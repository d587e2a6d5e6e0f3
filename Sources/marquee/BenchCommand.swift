import ArgumentParser
import Foundation
import MarqueeCore
import MarqueeMedia
import MarqueeSession

/// `marquee bench MEDIA [--size WxH --scaling MODE]`: how fast this machine decodes a file, and
/// decodes and converts it for a screen, against the rate the file needs to play in real time.
/// `marquee bench MEDIA --seek TIME` measures a seek's pre-roll instead (see `SeekBench`).
///
/// Two passes over every frame, each as fast as possible on this thread (the decoder uses its own
/// threads): decode only, then decode and convert each picture into a canvas of the screen's size.
/// The player splits that work between a decode thread and a present thread, so the second figure
/// is the pessimistic one. Prints `key: value` lines; errors are one line on stderr, exit status 1.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure decode and decode+convert speed of a media file against its frame rate."
    )

    @Argument(help: "A media file (relative to the current directory), a file: URL, or an http(s) URL.")
    var media: String

    @Option(help: "The screen size to convert to, WIDTHxHEIGHT (default 1920x1080).")
    var size: String?

    @Option(help: "How pictures fit that size: none, aspectFit, aspectFill or fill (default aspectFit).")
    var scaling: String?

    @Option(help: "Measure a seek to this time instead: seconds (2.5) or [hh:]mm:ss[.fff]. Prints the key frame seeks made, what was decoded before the time only to be trimmed, and how long it took.")
    var seek: String?

    static let defaultSize = PixelSize(width: 1920, height: 1080)

    func run() throws {
        if let seek {
            try runSeek(to: seek)
            return
        }
        let screen = try size.map { try CommandValues.size($0, option: "--size") } ?? Self.defaultSize
        let mode = try scaling.map { try CommandValues.scaling($0, option: "--scaling") } ?? .default
        let url = try CommandValues.mediaURL(media)
        let opener = FFmpegMediaOpener()

        let decoding: Pass
        let converting: Pass
        let asset: Asset
        do {
            (asset, decoding) = try Pass.run(opening: url, with: opener) { _ in }
            guard let codedSize = asset.codedSize else {
                throw PlaybackError(url: url, reason: "no video stream to measure")
            }
            let placement = ScalingGeometry(sourceSize: codedSize, sampleAspectRatio: asset.sampleAspectRatio,
                                            sourceRotation: asset.rotation, screenSize: screen).placement(for: mode)
            let canvas = Canvas(size: screen)
            (_, converting) = try Pass.run(opening: url, with: opener) { picture in
                try canvas.withPixelBuffer { try picture.draw(into: $0, placement: placement, background: .black) }
            }
        } catch let error as PlaybackError {
            throw CommandValues.fail("\(media): \(error.reason)")
        } catch {
            throw CommandValues.fail("\(media): \(error)")
        }
        guard decoding.frames > 0 else { throw CommandValues.fail("\(media): no picture could be decoded") }

        let rate = Self.frameRate(of: asset, measured: decoding)
        print("media: \(CredentialRedaction.redacted(media))")
        print("video: \(asset.tracks.first { $0.mediaType == .video }?.codecName ?? "unknown") \(asset.codedSize.map(\.description) ?? "")")
        print("frame rate: \(rate.map { Self.decimal($0, digits: 3) } ?? "unknown")")
        print("frames: \(decoding.frames)")
        print("duration: \(asset.duration.map { Self.decimal($0.seconds, digits: 3) } ?? "unknown")")
        print("convert to: \(screen) \(mode.rawValue)")
        print("decode seconds: \(Self.decimal(decoding.seconds, digits: 3))")
        print("decode fps: \(Self.decimal(decoding.framesPerSecond, digits: 1))")
        print("decode+convert seconds: \(Self.decimal(converting.seconds, digits: 3))")
        print("decode+convert fps: \(Self.decimal(converting.framesPerSecond, digits: 1))")
        print("speed: \(rate.map { String(format: "%.2fx realtime", converting.framesPerSecond / $0) } ?? "unknown")")
    }

    private func runSeek(to text: String) throws {
        let time = try CommandValues.time(text, option: "--seek")
        guard size == nil && scaling == nil else {
            throw CommandValues.fail("--seek measures decoding only: --size and --scaling do not apply")
        }
        let url = try CommandValues.mediaURL(media)
        let result: SeekBench.Result
        do {
            result = try SeekBench(url: url, time: time, opener: FFmpegMediaOpener()).run()
        } catch let error as PlaybackError {
            throw CommandValues.fail("\(media): \(error.reason)")
        } catch {
            throw CommandValues.fail("\(media): \(error)")
        }
        SeekBench.lines(for: result, media: media, time: time).forEach { print($0) }
    }

    /// One timed pass over every picture of the media.
    struct Pass {
        var frames = 0
        var seconds = 0.0
        var firstPTS: MediaTime?
        var lastPTS: MediaTime?

        var framesPerSecond: Double { seconds > 0 ? Double(frames) / seconds : 0 }

        static func run(opening url: String, with opener: FFmpegMediaOpener,
                        _ handle: (VideoPicture) throws -> Void) throws -> (Asset, Pass) {
            let clock = ContinuousClock()
            var pass = Pass()
            let start = clock.now
            let reader = try opener.open(url)
            while let picture = try reader.nextPicture() {
                try handle(picture)
                pass.frames += 1
                pass.firstPTS = pass.firstPTS ?? picture.pts
                pass.lastPTS = picture.pts
            }
            let elapsed = clock.now - start
            pass.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            return (reader.asset, pass)
        }
    }

    /// The rate the file needs: its video track's average frame rate, else what its timestamps show.
    static func frameRate(of asset: Asset, measured pass: Pass) -> Double? {
        if let rate = asset.tracks.first(where: { $0.mediaType == .video && $0.frameRate != nil })?.frameRate {
            return rate.seconds
        }
        guard pass.frames > 1, let first = pass.firstPTS, let last = pass.lastPTS, last > first else { return nil }
        return Double(pass.frames - 1) / (last - first).seconds
    }

    /// Fixed digits after the point, for lines that scripts read.
    static func decimal(_ value: Double, digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }
}
