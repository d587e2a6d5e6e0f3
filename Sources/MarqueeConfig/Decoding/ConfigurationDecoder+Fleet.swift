import Foundation
import Yams

extension ConfigurationDecoder {
    static let sourceKeys = ["url", "interval", "credentials", "caFile"]
    static let cacheKeys = ["dir", "maxBytes", "maxRate", "downloads"]

    /// `source: {url: https://cms/lobby.yaml, interval: 60, credentials: FILE, caFile: FILE}`, or
    /// just the url.
    mutating func decodeSource(_ node: Node) -> RemoteSourceConfiguration? {
        if case .scalar = node, !isNothing(node) { return sourceURL(node).map { RemoteSourceConfiguration(url: $0) } }
        guard let fields = fields(of: node, in: "source", allowed: Self.sourceKeys, allowsNothing: false) else { return nil }
        let url = fields["url"].flatMap { sourceURL($0.value) }
        if fields["url"] == nil {
            log.error(at: SourcePosition(of: node), "source is missing 'url' (where the playlist config is fetched from)")
        }
        // The rest is read even without a url, so every mistake is reported at once.
        var source = RemoteSourceConfiguration(url: url ?? URL(string: "http://invalid")!)
        if let node = fields["interval"]?.value, let seconds = number(node) {
            if RemoteSourceConfiguration.intervalRange.contains(seconds) {
                source.interval = seconds
            } else {
                log.error(at: SourcePosition(of: node), "interval \(Self.plain(seconds)) s is out of range (expected 5 to 86400 seconds)")
            }
        }
        source.credentials = fields["credentials"].flatMap { filePath($0.value, expected: "a file holding username:password") }
        source.caFile = fields["caFile"].flatMap { filePath($0.value, expected: "a file of CA certificates (PEM)") }
        return url == nil ? nil : source
    }

    private mutating func sourceURL(_ node: Node) -> URL? {
        guard let text = string(node, expected: "an http(s) URL of a config") else { return nil }
        switch RemoteSourceConfiguration.parse(url: text) {
        case .success(let url): return url
        case .failure(let problem):
            log.error(at: SourcePosition(of: node), problem.message)
            return nil
        }
    }

    /// `cache: {dir: /var/cache/marquee, maxBytes: 2G, maxRate: 1M, downloads: 2}`.
    mutating func decodeCache(_ node: Node) -> CacheConfiguration {
        var cache = CacheConfiguration()
        guard let fields = fields(of: node, in: "cache", allowed: Self.cacheKeys) else { return cache }
        cache.directory = fields["dir"].flatMap { filePath($0.value, expected: "a folder for the cache") }
        cache.maxBytes = fields["maxBytes"].flatMap { byteCount($0.value, rate: false) }
        cache.maxRate = fields["maxRate"].flatMap { byteCount($0.value, rate: true) }
        if let node = fields["downloads"]?.value, let count = wholeNumber(node) {
            if CacheConfiguration.downloadsRange.contains(count) {
                cache.downloads = count
            } else {
                log.error(at: SourcePosition(of: node), "downloads \(count) is out of range (expected 1 or 2 at a time)")
            }
        }
        return cache
    }

    private mutating func byteCount(_ node: Node, rate: Bool) -> Int64? {
        let expected = rate ? "a rate in bytes per second such as 2M or 500K/s" : "a size in bytes such as 2G or 500M"
        guard case .scalar(let scalar) = node, !isNothing(node), let bytes = CacheConfiguration.parseBytes(scalar.string, rate: rate) else {
            log.error(at: SourcePosition(of: node), "expected \(expected), found \(describe(node))")
            return nil
        }
        return bytes
    }

    /// A non-empty path, resolved against the config's folder.
    mutating func filePath(_ node: Node, expected: String) -> String? {
        guard let text = string(node, expected: expected) else { return nil }
        guard !text.isEmpty else {
            log.error(at: SourcePosition(of: node), "expected \(expected), found an empty string")
            return nil
        }
        return URL(fileURLWithPath: text, relativeTo: baseDirectory).standardizedFileURL.path
    }
}
