/// How a config file is written, chosen by its extension.
public enum ConfigurationFormat: String, Sendable, CaseIterable {
    case yaml
    /// Read with the YAML parser too (JSON is nearly a subset of YAML), which keeps line and column
    /// positions for every value; Foundation's JSONSerialization reports none.
    case json
    /// A plain playlist: one path or URL per line, `#EXTINF:seconds,Title` naming the next item.
    case m3u

    /// `.yaml`/`.yml`, `.json`, `.m3u`/`.m3u8`; anything else is tried as YAML.
    public init(path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let fileExtension = name.contains(".") ? name.split(separator: ".").last.map { $0.lowercased() } ?? "" : ""
        switch fileExtension {
        case "json": self = .json
        case "m3u", "m3u8": self = .m3u
        default: self = .yaml
        }
    }
}
