import Foundation
import MarqueeCore
import Yams

/// Reads a config file of any supported format into a `MarqueeConfiguration`, collecting every
/// problem with its line and column instead of stopping at the first.
public enum ConfigurationLoader {
    /// Reads the file at `path` (relative paths are taken from the working directory) and picks
    /// the format from its extension. Diagnostics name the file as `path` is spelled.
    ///
    /// - Parameter checkingMediaFiles: warn about local media files that do not exist.
    public static func load(path: String, checkingMediaFiles: Bool = true) -> ConfigurationLoadResult {
        var log = DiagnosticLog(file: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            log.error(at: .start, "config file not found")
            return ConfigurationLoadResult(configuration: nil, diagnostics: log.sortedDiagnostics)
        }
        guard !isDirectory.boolValue else {
            log.error(at: .start, "is a folder, not a config file")
            return ConfigurationLoadResult(configuration: nil, diagnostics: log.sortedDiagnostics)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            log.error(at: .start, "cannot read the config file (check its permissions)")
            return ConfigurationLoadResult(configuration: nil, diagnostics: log.sortedDiagnostics)
        }
        let format = ConfigurationFormat(path: path)
        guard let text = decodeText(data, format: format) else {
            log.error(at: .start, "the config file is not UTF-8 text")
            return ConfigurationLoadResult(configuration: nil, diagnostics: log.sortedDiagnostics)
        }
        return load(text: text, format: format, path: path, checkingMediaFiles: checkingMediaFiles)
    }

    /// Reads config text as if it were the file at `path`: relative media paths resolve against
    /// that file's folder.
    public static func load(text: String, format: ConfigurationFormat, path: String,
                            checkingMediaFiles: Bool = true) -> ConfigurationLoadResult {
        let source = URL(fileURLWithPath: path).standardizedFileURL
        return load(text: text, format: format, named: path, source: source,
                    baseDirectory: source.deletingLastPathComponent(), mediaBase: nil, checkingMediaFiles: checkingMediaFiles)
    }

    /// Reads config text fetched from `url`: items' relative urls are the server's, diagnostics
    /// name the URL, and file paths in it (credentials, fonts) resolve against `localFolder`.
    public static func load(fetchedText text: String, from url: URL, localFolder: URL) -> ConfigurationLoadResult {
        let format: ConfigurationFormat = url.pathExtension.lowercased() == "json" ? .json : .yaml
        return load(text: text, format: format, named: CredentialRedaction.redacted(url.absoluteString), source: url,
                    baseDirectory: localFolder, mediaBase: url, checkingMediaFiles: false)
    }

    private static func load(text: String, format: ConfigurationFormat, named name: String, source: URL,
                             baseDirectory: URL, mediaBase: URL?, checkingMediaFiles: Bool) -> ConfigurationLoadResult {
        var log = DiagnosticLog(file: name)
        var configuration: MarqueeConfiguration?
        var isConfig = format == .m3u

        switch format {
        case .m3u:
            var reader = M3UPlaylistReader(baseDirectory: baseDirectory, checkingMediaFiles: checkingMediaFiles, log: log)
            configuration = reader.read(text, source: source)
            log = reader.log
        case .yaml, .json:
            let document = YAMLDocumentComposer.compose(text, log: &log)
            if let root = document.root {
                if case .mapping(let mapping) = root {
                    isConfig = mapping.keys.contains { $0.string.map(ConfigurationDecoder.sections.contains) ?? false }
                }
                var decoder = ConfigurationDecoder(log: log, baseDirectory: baseDirectory,
                                                   duplicateKeySentinels: document.duplicateKeySentinels,
                                                   checkingMediaFiles: checkingMediaFiles, mediaBase: mediaBase)
                configuration = decoder.decodeConfiguration(root, source: source)
                log = decoder.log
            } else if !log.hasErrors {
                log.error(at: .start, "the config file is empty")
            }
        }
        return ConfigurationLoadResult(configuration: log.hasErrors ? nil : configuration,
                                       diagnostics: log.sortedDiagnostics, isConfig: isConfig)
    }

    /// UTF-8; an M3U (unlike M3U8) may also be Latin-1, as old playlist tools wrote them.
    private static func decodeText(_ data: Data, format: ConfigurationFormat) -> String? {
        if let text = String(data: data, encoding: .utf8) { return text }
        return format == .m3u ? String(data: data, encoding: .isoLatin1) : nil
    }
}
