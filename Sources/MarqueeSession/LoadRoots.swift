import Foundation

/// The folders a `load` over the control socket or MQTT may read from: configs and local media
/// under them, nothing else. A client that may load would otherwise have the player read (and
/// quote back, in diagnostics) any file it can: a credentials file, a shadow file, its own memory
/// map. Paths are compared after symlinks are resolved, so a link under a root to a file outside
/// it is outside.
package struct LoadRoots: Sendable {
    /// Resolved, each ending in "/".
    package let folders: [String]

    /// `media.roots` when the config names them; else the config's folder (or the working folder
    /// when media were given instead) and the cache's.
    package init(configured: [String]?, configPath: String?, cacheDirectory: String?) {
        if let configured {
            self.init(folders: configured)
            return
        }
        let configFolder = configPath.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
            ?? FileManager.default.currentDirectoryPath
        self.init(folders: [configFolder] + (cacheDirectory.map { [$0] } ?? []))
    }

    package init(folders: [String]) {
        self.folders = folders.map { folder in
            let resolved = Self.resolved(folder)
            return resolved.hasSuffix("/") ? resolved : resolved + "/"
        }
    }

    /// Why the config at `path` may not be loaded; nil when it may.
    package func refusal(ofConfig path: String) -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return "no such file" }
        return contains(path) ? nil : "configs are loaded only from \(list)"
    }

    /// Why the media `url` may not be played from a loaded config; nil when it may (remote media,
    /// or a file under a root).
    package func refusal(ofMedia url: String) -> String? {
        let path: String
        if url.hasPrefix("/") {
            path = url
        } else if let parsed = URL(string: url), parsed.scheme?.lowercased() == "file" {
            path = parsed.path
        } else {
            return nil
        }
        return contains(path) ? nil : "local media are played only from \(list), not \(url)"
    }

    private func contains(_ path: String) -> Bool {
        let resolved = Self.resolved(path)
        return folders.contains { resolved.hasPrefix($0) }
    }

    private var list: String {
        folders.map { String($0.dropLast()) }.joined(separator: " and ")
    }

    /// The path with every symlink resolved (realpath); as given when it does not exist.
    private static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return URL(fileURLWithPath: path).standardizedFileURL.path }
        defer { free(real) }
        return String(cString: real)
    }
}
