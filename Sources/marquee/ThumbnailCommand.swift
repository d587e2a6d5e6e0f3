import ArgumentParser
import Foundation
import MarqueeConfig
import MarqueeCore
import MarqueeMedia
import MarqueeSession

/// `marquee thumbnail MEDIA --at TIME [--exact] [--size WxH --scaling MODE] [--background #RRGGBB] -o OUT.png`:
/// a PNG of one moment of a media item, drawn exactly as a screen of that size would show it.
/// On failure: one line on stderr (`MEDIA: cause`, `OUT.png: cause` or `--option: problem`), exit status 1.
struct ThumbnailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Write a PNG of a media file at a time: the keyframe at or before it, or with --exact the frame on screen then."
    )

    @Argument(help: "A media file (relative to the current directory), a file: URL, or an http(s) URL.")
    var media: String

    @Option(name: .customLong("at"), help: "The time: seconds (2.5) or [hh:]mm:ss[.fff].")
    var time: String

    @Flag(help: "Take the frame on screen at that time rather than the keyframe at or before it (slower).")
    var exact = false

    @Option(help: "The picture's size, WIDTHxHEIGHT (default: the media's natural size).")
    var size: String?

    @Option(help: "How the picture fits --size: none, aspectFit, aspectFill or fill (default aspectFit).")
    var scaling: String?

    @Option(help: "The colour around the picture, #RRGGBB (default #000000).")
    var background: String?

    @Option(name: [.customShort("o"), .customLong("output")], help: "The PNG file to write.")
    var output: String

    func run() throws {
        let at = try CommandValues.time(time, option: "--at")
        let pictureSize = try size.map { try CommandValues.size($0, option: "--size") }
        if scaling != nil && pictureSize == nil {
            throw CommandValues.fail("--scaling needs --size: at the natural size there is nothing to fit")
        }
        let mode = try scaling.map { try CommandValues.scaling($0, option: "--scaling") } ?? .default
        let color = try background.map { try CommandValues.color($0, option: "--background") } ?? .black
        let url = try CommandValues.mediaURL(media)

        let canvas: Canvas
        do throws(PlaybackError) {
            canvas = try Thumbnailer.thumbnail(of: url, at: at, exact: exact, size: pictureSize, scaling: mode, background: color)
        } catch {
            throw CommandValues.fail("\(media): \(error.reason)")
        }
        do throws(ImageWriteError) {
            try PNGWriter.write(canvas, to: output)
        } catch {
            throw CommandValues.fail(error.description)
        }
        print("\(output): \(canvas.size)")
    }
}
