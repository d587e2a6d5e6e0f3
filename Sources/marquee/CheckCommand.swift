import ArgumentParser
import MarqueeConfig

/// `marquee check CONFIG`: validates a config the way `play` would read it, so an operator can
/// check a file before copying it to a device. Prints every problem as `FILE:LINE:COLUMN:
/// error: message`, in file order, and exits 1 if any is an error.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a config file (YAML, JSON or M3U) and report every problem with its line and column."
    )

    @Argument(help: "The config file to check (.yaml, .yml, .json, .m3u, .m3u8).")
    var config: String

    func run() throws {
        let result = ConfigurationLoader.load(path: config)
        for diagnostic in result.diagnostics {
            print(diagnostic)
        }
        guard let configuration = result.configuration, !result.hasErrors else {
            throw ExitCode(1)
        }
        print(Self.summary(of: configuration, path: config))
    }

    /// `Config/demo.yaml: OK, 3 items, repeat all`.
    static func summary(of configuration: MarqueeConfiguration, path: String) -> String {
        let count = configuration.playlist.items.count
        return "\(path): OK, \(count) \(count == 1 ? "item" : "items"), repeat \(configuration.playlist.repeat.rawValue)"
    }
}
