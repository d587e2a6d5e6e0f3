import Foundation

/// The reply to a `load` that waits for its hand-over: sent once both the acceptance's fields and
/// what became of the playlist are known, in whichever order they come (a load with nothing to
/// download is handed over before `host.load` returns), and only once.
final class LoadReplyGate: @unchecked Sendable {
    private let lock = NSLock()
    private var fields: [String: Any]?
    private var handOver: LoadHandOver?
    private var sent = false
    private let send: @Sendable ([String: Any], LoadHandOver) -> Void

    init(send: @escaping @Sendable ([String: Any], LoadHandOver) -> Void) {
        self.send = send
    }

    func accepted(_ fields: [String: Any]) {
        lock.withLock { self.fields = fields }
        sendIfReady()
    }

    func handedOver(_ handOver: LoadHandOver) {
        lock.withLock { self.handOver = self.handOver ?? handOver }
        sendIfReady()
    }

    private func sendIfReady() {
        let ready = lock.withLock { () -> ([String: Any], LoadHandOver)? in
            guard !sent, let fields, let handOver else { return nil }
            sent = true
            return (fields, handOver)
        }
        if let ready { send(ready.0, ready.1) }
    }
}
