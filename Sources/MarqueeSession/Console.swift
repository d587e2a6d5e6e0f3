import Foundation
import Logging
import MarqueeCore
import MarqueePlayer

/// stderr, shared by journal lines and (on a terminal) the live status line: a log line clears the
/// status line, prints, and redraws it, so the two never garble each other.
package final class Console: @unchecked Sendable {
    package static let shared = Console()

    package let isTerminal = isatty(STDERR_FILENO) == 1
    private let lock = NSLock()
    private var status = ""

    /// Journal lines never show a password in a URL, whichever part of Marquee wrote them.
    package func log(_ line: String) {
        let line = CredentialRedaction.redacted(line)
        lock.withLock {
            write(isTerminal ? "\r\u{1B}[K\(line)\n\(status)" : "\(line)\n")
        }
    }

    package func showStatus(_ text: String) {
        guard isTerminal else { return }
        lock.withLock {
            status = text
            write("\r\u{1B}[K\(text)")
        }
    }

    package func endStatus() {
        guard isTerminal else { return }
        lock.withLock {
            if !status.isEmpty { write("\n") }
            status = ""
        }
    }

    /// A stderr nobody reads any more (`2>&1 | head -1`, a journald restart) fails with EPIPE
    /// (SIGPIPE is ignored): there is nowhere left to say so, so the line is dropped and playback
    /// goes on.
    private func write(_ text: String) {
        _ = DescriptorWrite.all(Data(text.utf8), to: STDERR_FILENO)
    }

    /// A line straight to stderr, before any status line exists (usage and startup errors).
    package static func writeError(_ line: String) {
        _ = DescriptorWrite.all(Data((line + "\n").utf8), to: STDERR_FILENO)
    }
}

/// swift-log's handler for Console: `LEVEL: message`, the timestamps left to the journal.
package struct ConsoleLogHandler: LogHandler {
    package init() {}

    package var logLevel: Logger.Level = .info
    package var metadata: Logger.Metadata = [:]

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        // With `displays:`, what one screen's player says is told apart by its name.
        let screen = event.metadata?["screen"] ?? metadata["screen"]
        Console.shared.log("\(event.level): \(screen.map { "screen \($0): " } ?? "")\(event.message)")
    }
}
