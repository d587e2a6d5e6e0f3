import ArgumentParser
import Foundation
import MarqueeALSA
import MarqueeCEC
import MarqueeConfig
import MarqueeCore
import MarqueeDRM
import MarqueeEvdev
import MarqueeMedia
import MarqueeSession

/// `marquee probe MEDIA [--json]`: the facts Marquee reads from one media file or URL (duration,
/// sizes, rotation, tracks), so an operator can see why an item plays the way it does before it
/// reaches a screen. On failure: one line `MEDIA: cause` on stderr and exit status 1.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Show what Marquee reads from a media file or URL (duration, sizes, rotation, tracks), or without one, the display, HDMI-CEC and sound hardware and the input devices."
    )

    @Argument(help: "A media file (relative to the current directory), a file: URL, or an http(s) URL. Without it: the display hardware (DRM cards, connectors, modes, CRTCs, planes), the HDMI-CEC adapters, the sound cards and ALSA PCMs, and the input devices with their mapped keys (--json: all of it as one object).")
    var media: String?

    @Flag(help: "Print one JSON object with sorted keys instead of aligned text.")
    var json = false

    @Option(help: "A config with `displays:`: each screen is listed too, with its connector, the mode it would get and what it plays or mirrors.")
    var config: String?

    @Option(help: "Seconds to wait for a network source before giving up.")
    var timeout: Double = 5

    func validate() throws {
        guard timeout > 0, timeout.isFinite else {
            throw ValidationError("--timeout must be a positive number of seconds")
        }
    }

    func run() throws {
        guard let media else {
            // Input devices are read with the default key map (a config's keys: overrides are not applied).
            let inputs = InputInventory.scan()
            let cards = ALSAInventory.cards()
            let pcms = ALSAInventory.playbackPCMs()
            let displays = DRMInventory.cards()
            let cec = CECInventory.adapters()
            let screens = try config.map { try Self.screens(in: $0) }.map { ScreenInventoryReport.lines($0, cards: displays) }
            if json {
                var object: [String: Any] = ["display": DisplayInventoryReport.object(displays),
                                             "cec": CECInventoryReport.object(cec),
                                             "audio": AudioInventoryReport.object(cards: cards, pcms: pcms),
                                             "inputDevices": InputInventoryReport.jsonObject(inputs, keyMap: .default)]
                if let screens { object["screens"] = ScreenInventoryReport.object(screens) }
                print(Self.serialised(object))
            } else {
                print(DisplayInventoryReport.text(displays))
                if let screens { print(ScreenInventoryReport.text(screens)) }
                print(CECInventoryReport.text(cec))
                print(AudioInventoryReport.text(cards: cards, pcms: pcms))
                print(InputInventoryReport.text(inputs, keyMap: .default))
            }
            return
        }
        let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let source: MediaSource
        switch MediaLocation.resolve(media, relativeTo: workingDirectory) {
        case .success(.file(let path)): source = .file(path: path)
        case .success(.remote(let url)): source = .remote(url: url.absoluteString)
        case .failure(let error): throw Self.fail("\(media): \(error.message)")
        }
        let asset: Asset
        do {
            asset = try AssetProbe.asset(of: source, options: MediaOpenOptions(networkTimeout: .seconds(timeout)))
        } catch {
            throw Self.fail(error.naming(media).description)
        }
        print(json ? Self.jsonReport(asset) : Self.textReport(asset))
    }

    /// The screens of `--config`'s `displays:` (one, named `display`, for a single-screen config);
    /// a config with errors fails as `check` prints them.
    private static func screens(in path: String) throws -> [ScreenConfiguration] {
        let result = ConfigurationLoader.load(path: path, checkingMediaFiles: false)
        guard let configuration = result.configuration, !result.hasErrors else {
            throw Self.fail(result.errors.map(\.description).joined(separator: "\n"))
        }
        guard configuration.screens.isEmpty else { return configuration.screens }
        let display = configuration.display
        return [ScreenConfiguration(name: "display", connector: display.connector, mode: display.mode, rotation: display.rotation,
                                    scaling: display.scaling, background: display.background, content: .playlist(configuration.playlist))]
    }

    private static func fail(_ line: String) -> ExitCode {
        CommandValues.fail(line)
    }

    // MARK: Text

    /// Aligned `label  value` lines, one more per track.
    static func textReport(_ asset: Asset) -> String {
        var rows: [(String, String)] = [
            ("url", CredentialRedaction.redacted(asset.url)),
            ("container", asset.containerName),
            ("duration", asset.duration?.description ?? "unknown"),
            ("natural size", asset.naturalSize?.description ?? "none (no video)"),
            ("coded size", asset.codedSize.map { "\($0), SAR \(asset.sampleAspectRatio)" } ?? "none (no video)"),
            ("rotation", asset.rotation == .none ? "none" : "\(asset.rotation.degrees)° clockwise"),
            ("seekable", asset.isSeekable ? "yes" : "no"),
            ("still image", asset.isStillImage ? "yes" : "no"),
        ]
        rows += asset.tracks.map { ("track \($0.index)", trackSummary($0)) }
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { label, value in
            label.padding(toLength: width + 2, withPad: " ", startingAt: 0) + value
        }.joined(separator: "\n")
    }

    /// `video h264 320x240 25 fps, 0:02.000` / `audio aac 48000 Hz 2 ch, 0:02.000, not decodable`.
    static func trackSummary(_ track: Track) -> String {
        var facts = [track.mediaType.rawValue, track.codecName]
        if let width = track.width, let height = track.height { facts.append("\(width)x\(height)") }
        if let rate = track.frameRate { facts.append("\(decimal(rate.seconds)) fps") }
        if let rate = track.sampleRate { facts.append("\(rate) Hz") }
        if let channels = track.channels { facts.append("\(channels) ch") }
        var parts = [facts.joined(separator: " ")]
        if let duration = track.duration { parts.append(duration.description) }
        if !track.isDecodable { parts.append("not decodable") }
        return parts.joined(separator: ", ")
    }

    /// `25`, `29.97`, `23.976`: up to three decimals, no trailing zeros.
    static func decimal(_ value: Double) -> String {
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    // MARK: JSON

    /// One line, sorted keys; unknown values are `null` so every key is always present.
    static func jsonReport(_ asset: Asset) -> String {
        let object: [String: Any] = [
            "url": CredentialRedaction.redacted(asset.url),
            "container": asset.containerName,
            "duration": seconds(asset.duration),
            "naturalSize": size(asset.naturalSize),
            "codedSize": size(asset.codedSize),
            "sampleAspectRatio": asset.sampleAspectRatio.description,
            "rotation": asset.rotation.degrees,
            "mediaTypes": asset.mediaTypes.sorted().map(\.rawValue),
            "seekable": asset.isSeekable,
            "stillImage": asset.isStillImage,
            "tracks": asset.tracks.map(trackObject),
        ]
        return serialised(object)
    }

    static func serialised(_ object: [String: Any]) -> String {
        do {
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            return String(decoding: data, as: UTF8.self)
        } catch {
            // Only strings, numbers, booleans, arrays and dictionaries go in, so this cannot happen.
            preconditionFailure("probe report is not JSON-serialisable: \(error)")
        }
    }

    private static func trackObject(_ track: Track) -> [String: Any] {
        [
            "index": track.index,
            "type": track.mediaType.rawValue,
            "codec": track.codecName,
            "decodable": track.isDecodable,
            "duration": seconds(track.duration),
            "frameRate": track.frameRate.map { $0.seconds as Any } ?? NSNull(),
            "width": track.width.map { $0 as Any } ?? NSNull(),
            "height": track.height.map { $0 as Any } ?? NSNull(),
            "sampleRate": track.sampleRate.map { $0 as Any } ?? NSNull(),
            "channels": track.channels.map { $0 as Any } ?? NSNull(),
        ]
    }

    private static func seconds(_ time: MediaTime?) -> Any {
        time.map { $0.seconds as Any } ?? NSNull()
    }

    private static func size(_ size: PixelSize?) -> Any {
        size.map { ["width": $0.width, "height": $0.height] as Any } ?? NSNull()
    }
}
