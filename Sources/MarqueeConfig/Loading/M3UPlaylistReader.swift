import Foundation

/// Reads a plain M3U/M3U8 playlist: one path or URL per line. Blank lines and `#` comments are
/// skipped; `#EXTINF:seconds,Title` titles the next entry (its seconds are only a hint written by
/// playlist tools, so they do not become a duration). Every other setting takes its default, and
/// the list repeats, as signage does.
struct M3UPlaylistReader {
    let baseDirectory: URL
    let checkingMediaFiles: Bool
    var log: DiagnosticLog

    init(baseDirectory: URL, checkingMediaFiles: Bool, log: DiagnosticLog) {
        self.baseDirectory = baseDirectory
        self.checkingMediaFiles = checkingMediaFiles
        self.log = log
    }

    mutating func read(_ text: String, source: URL) -> MarqueeConfiguration? {
        var items: [PlaylistItemConfiguration] = []
        var pendingTitle: String?
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (index, rawLine) in lines.enumerated() {
            var line = Substring(rawLine)
            if index == 0, line.first == "\u{FEFF}" { line = line.dropFirst() }
            let leadingBlanks = line.prefix { $0 == " " || $0 == "\t" }.count
            let entry = line.trimmingCharacters(in: .whitespaces)
            guard !entry.isEmpty else { continue }
            if entry.hasPrefix("#") {
                if entry.uppercased().hasPrefix("#EXTINF:") {
                    pendingTitle = Self.title(fromExtinf: entry)
                    checkDuration(ofExtinf: entry, line: index + 1, column: leadingBlanks + 1)
                }
                continue
            }
            let position = SourcePosition(line: index + 1, column: leadingBlanks + 1)
            let locations = MediaLocationReader(baseDirectory: baseDirectory, checkingMediaFiles: checkingMediaFiles)
            if let location = locations.read(entry, at: position, log: &log) {
                items.append(PlaylistItemConfiguration(location: location, title: pendingTitle))
            }
            pendingTitle = nil
        }
        if items.isEmpty && !log.hasErrors {
            log.error(at: .start, "the playlist has no entries (one path or URL per line)")
        }
        return MarqueeConfiguration(playlist: PlaylistConfiguration(items: items), source: source)
    }

    /// The duration is only a hint, but one a tool wrote wrong (`#EXTINF:abc,`, `#EXTINF:-5,`) points
    /// at a damaged or hand-edited list: a warning at the duration, which is otherwise ignored.
    /// `-1` is the format's "unknown" (live streams) and attributes may follow after a space
    /// (`#EXTINF:-1 tvg-id="x",Title`).
    private mutating func checkDuration(ofExtinf entry: String, line: Int, column: Int) {
        let afterTag = entry.dropFirst("#EXTINF:".count)
        let duration = afterTag.prefix { $0 != "," && $0 != " " && $0 != "\t" }
        let position = SourcePosition(line: line, column: column + "#EXTINF:".count)
        guard let seconds = Double(duration), seconds.isFinite else {
            let shown = duration.isEmpty ? "nothing" : "'\(duration)'"
            log.warning(at: position, "#EXTINF duration \(shown) is not a number of seconds (ignored)")
            return
        }
        if seconds < 0 && seconds != -1 {
            log.warning(at: position, "#EXTINF duration '\(duration)' is negative; only -1 (unknown) may be (ignored)")
        }
    }

    /// `#EXTINF:123,Artist - Title` → `Artist - Title`; nil when there is no title after the comma.
    static func title(fromExtinf line: String) -> String? {
        guard let comma = line.firstIndex(of: ",") else { return nil }
        let title = line[line.index(after: comma)...].trimmingCharacters(in: .whitespaces)
        return title.isEmpty ? nil : title
    }
}
