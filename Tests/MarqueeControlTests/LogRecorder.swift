import Synchronization
@testable import MarqueeControl

/// Keeps a server's log lines for the test to read.
final class LogRecorder: Sendable {
    private let lines = Mutex<[(level: ControlSocketLogLevel, text: String)]>([])

    var log: @Sendable (ControlSocketLogLevel, String) -> Void {
        { [self] level, text in lines.withLock { $0.append((level, text)) } }
    }

    var all: [(level: ControlSocketLogLevel, text: String)] { lines.withLock { $0 } }

    func warnings() -> [String] { all.filter { $0.level == .warning }.map(\.text) }

    func contains(_ fragment: String) -> Bool { all.contains { $0.text.contains(fragment) } }
}
