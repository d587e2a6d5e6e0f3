import ArgumentParser
import MarqueeConfig
import MarqueeCore
import MarqueeMedia
import MarqueeSession

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
        var summary = Self.summary(of: configuration, path: config)
        if let sync = configuration.sync {
            // Every item needs a length the players agree on: each is opened to learn it.
            let items = (try? PlaybackPlan.fromConfig(result, path: config).items) ?? []
            switch WallSyncPlanner.lengths(of: items, opener: FFmpegMediaOpener()) {
            case .failure(let problems):
                for problem in problems {
                    let place = problem.index < sync.itemPlaces.count ? sync.itemPlaces[problem.index] : SyncConfiguration.Place(line: 1, column: 1)
                    print(Diagnostic(severity: .error, file: config, line: place.line, column: place.column, message: problem.line))
                }
                throw ExitCode(1)
            case .success(let lengths):
                let cycle = lengths.reduce(MediaTime.zero, +)
                summary += ", locked to the wall clock from \(sync.epochText) (a cycle of \(cycle.seconds) s)"
            }
        }
        print(summary)
        Self.screenLines(of: configuration).forEach { print($0) }
    }

    /// `Config/demo.yaml: OK, 3 items, repeat all`; a config that changes the keys says what they
    /// come to: `..., 14 keys bound (keymap none), a stop from a key resumes after 30 s`.
    /// A config with dayparts or schedules names them and the zone its times are in:
    /// `..., 3 playlists (breakfast, lunch, default), 4 items, repeat all, times in Europe/Berlin`.
    /// With `displays:` the counts are every screen's (`3 screens (menu, offers, window), 3 items,
    /// repeat all/shuffle`), and a line per screen follows (`screenLines`).
    static func summary(of configuration: MarqueeConfiguration, path: String) -> String {
        let screens = configuration.screens
        let playlists = screens.isEmpty ? configuration.dayparts.map(\.playlist) : screens.compactMap(\.playlist)
        let count = playlists.map(\.items.count).reduce(0, +)
        var repeatModes: [String] = []
        for mode in playlists.map(\.repeat.rawValue) where !repeatModes.contains(mode) { repeatModes.append(mode) }
        var text = "\(path): OK, "
        if !screens.isEmpty {
            text += "\(screens.count) \(screens.count == 1 ? "screen" : "screens") (\(screens.map(\.name).joined(separator: ", "))), "
        } else if !configuration.hasSinglePlaylist {
            let names = configuration.dayparts.map(\.name)
            text += "\(names.count) \(names.count == 1 ? "playlist" : "playlists") (\(names.joined(separator: ", "))), "
        }
        text += "\(itemCount(count)), repeat \(repeatModes.joined(separator: "/"))"
        if configuration.isScheduled {
            text += ", times in \(configuration.timeZoneName())"
        }
        let input = configuration.input
        if input.baseKeyMap != .default || !input.keyOverrides.isEmpty || input.stopTimeout != InputConfiguration.defaultStopTimeout {
            let bound = input.keyMap.boundCodes.count
            text += ", \(bound) \(bound == 1 ? "key" : "keys") bound (keymap \(input.baseKeyMap.rawValue))"
            if let timeout = input.stopTimeout {
                text += ", a stop from a key resumes after \(seconds(timeout)) s"
            } else {
                text += ", a stop from a key lasts until something plays"
            }
        }
        return text
    }

    /// `1 item`, `3 items`.
    static func itemCount(_ count: Int) -> String {
        "\(count) \(count == 1 ? "item" : "items")"
    }

    /// `60`, `1.5`.
    private static func seconds(_ time: MediaTime) -> String {
        let value = time.seconds
        return value == value.rounded() ? String(Int64(value)) : String(value)
    }
}
