/// Where the metrics server listens: `127.0.0.1:9150`, `0.0.0.0:9150` (every IPv4 interface),
/// `[::1]:9150`, `[::]:9150`, or a host name such as `localhost:9150`.
public struct MetricsListenAddress: Sendable, Equatable, Codable, CustomStringConvertible {
    public var host: String
    public var port: Int

    /// Loopback only: a scraper on the device itself, or one reached through a tunnel, unless the
    /// operator opens it up. 9150 is free in Prometheus's list of default ports.
    public static let standard = MetricsListenAddress(host: "127.0.0.1", port: 9150)

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `127.0.0.1:9150`, `[::1]:9150`: as written in a config.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// `HOST:PORT` or `[IPV6]:PORT`, or why it is not one, worded to follow "metrics.listen: ".
    public static func parse(_ text: String) -> Result<MetricsListenAddress, Problem> {
        let expected = "expected HOST:PORT such as 127.0.0.1:9150, 0.0.0.0:9150 or [::1]:9150"
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return .failure(Problem("'\(text)': an IPv6 address in brackets must be followed by :PORT (\(expected))"))
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2 else {
                let hint = parts.count > 2 ? "write an IPv6 address in brackets, [::1]:9150" : expected
                return .failure(Problem("'\(text)' is not an address to listen on (\(hint))"))
            }
            host = parts[0]
            portText = parts[1]
        }
        guard !host.isEmpty, !host.contains(where: \.isWhitespace) else {
            return .failure(Problem("'\(text)' names no host (\(expected); 0.0.0.0 listens on every interface)"))
        }
        guard let port = Int(portText), (1...65535).contains(port) else {
            return .failure(Problem("'\(text)': the port must be a number from 1 to 65535"))
        }
        return .success(MetricsListenAddress(host: String(host), port: port))
    }

    public struct Problem: Error, Sendable, Equatable {
        public var message: String
        init(_ message: String) { self.message = message }
    }
}
