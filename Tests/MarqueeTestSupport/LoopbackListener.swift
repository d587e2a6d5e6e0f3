import Foundation
import Glibc
import Synchronization

/// The listening half the tests' loopback servers share: a socket on 127.0.0.1, an accept thread
/// that gives each connection a thread of its own, and `stop()`, which closes the listener and
/// shuts every open connection (ending stalled ones). A connection is closed when its handler returns.
final class LoopbackListener: Sendable {
    let port: UInt16
    private let socket: Int32
    private let state = Mutex((connections: Set<Int32>(), stopped: false))

    /// On `port` when given (a server that comes up where a client already looks), else on one the
    /// kernel picks.
    init(port: UInt16) throws {
        (socket, self.port) = try LoopbackHTTPServer.listeningSocket(on: port)
    }

    /// Starts accepting; `serve` runs on each connection's own thread, named `name`.
    func start(name: String, serve: @escaping @Sendable (Int32) -> Void) {
        let thread = Thread { [self] in acceptLoop(name: name, serve: serve) }
        thread.name = "\(name)-accept"
        thread.start()
    }

    func stop() {
        let connections = state.withLock { state -> Set<Int32> in
            guard !state.stopped else { return [] }
            state.stopped = true
            return state.connections
        }
        shutdown(socket, Int32(SHUT_RDWR))
        for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop(name: String, serve: @escaping @Sendable (Int32) -> Void) {
        defer { close(socket) }
        while true {
            let connection = accept(socket, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return  // shut down
            }
            let accepted = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.connections.insert(connection)
                return true
            }
            guard accepted else {
                close(connection)
                return
            }
            let thread = Thread { [self] in
                defer {
                    state.withLock { _ = $0.connections.remove(connection) }
                    close(connection)
                }
                serve(connection)
            }
            thread.name = "\(name)-connection"
            thread.start()
        }
    }
}
