import ArgumentParser
import Foundation
import MarqueeConfig
import MarqueeCore
import MarqueeMedia
import MarqueeSession

/// Reading the values media commands share, each refusal one line on stderr and exit status 1, as
/// every Marquee error is (ArgumentParser's own usage errors aside).
enum CommandValues {
    /// Writes `line`, with any password in a URL it names hidden.
    static func fail(_ line: String) -> ExitCode {
        Console.writeError(CredentialRedaction.redacted(line))
        return ExitCode(1)
    }

    /// The path or URL to hand the media backend: paths are resolved against the working directory.
    static func mediaURL(_ text: String) throws -> String {
        let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        switch MediaLocation.resolve(text, relativeTo: workingDirectory) {
        case .success(let location): return location.description
        case .failure(let error): throw fail("\(text): \(error.message)")
        }
    }

    static func time(_ text: String, option: String) throws -> MediaTime {
        switch MediaTime.parse(text) {
        case .success(let time): return time
        case .failure(let error): throw fail("\(option): \(error)")
        }
    }

    static func size(_ text: String, option: String) throws -> PixelSize {
        guard let size = DisplayConfiguration.Size(parsing: text) else {
            throw fail("\(option): bad size '\(text)' (expected WIDTHxHEIGHT, e.g. 1280x720, "
                + "each side 1 to \(DisplayConfiguration.Size.maximumSide))")
        }
        return PixelSize(width: size.width, height: size.height)
    }

    /// Case-insensitive, as in configs.
    static func scaling(_ text: String, option: String) throws -> ScalingMode {
        guard let mode = ScalingMode.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
            throw fail("\(option): unknown scaling mode '\(text)' (none, aspectFit, aspectFill or fill)")
        }
        return mode
    }

    static func color(_ text: String, option: String) throws -> RGBColor {
        guard let color = RGBColor(parsing: text) else {
            throw fail("\(option): bad colour '\(text)' (expected #RRGGBB)")
        }
        return color
    }
}
