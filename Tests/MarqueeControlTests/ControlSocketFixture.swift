import Foundation
import Glibc
@testable import MarqueeCore
import Synchronization
@testable import MarqueeControl

/// A control-plane loop for a test's servers, started: the thread their sources and callbacks run
/// on. Stop it when done (a `defer` right after creating it).
func startedLoop() throws -> ControlPlaneLoop {
    let loop = try ControlPlaneLoop(name: "test.control")
    loop.start()
    return loop
}

/// A started echo server in a fresh temp folder (mode 0755, so another uid can reach the socket):
/// every line comes back as it was sent; a line too long comes back as `too long LIMIT`. Records
/// peers, inputs and log lines. Runs on `loop`, else on a loop of its own that `stop()` stops too.
/// Call `stop()` when done (a `defer` right after creating it).
final class ControlSocketFixture: Sendable {
    let folder: String
    let path: String
    let logs = LogRecorder()
    let loop: ControlPlaneLoop
    private let ownsLoop: Bool
    let server: ControlSocketServer
    private let recorded = Recorded()

    init(limits: ControlSocketServer.Limits = .init(), roles: SocketRoles = SocketRoles(), recordInputs: Bool = true,
         loop: ControlPlaneLoop? = nil) throws {
        folder = try Self.makeFolder()
        path = folder + "/control.sock"
        self.loop = try loop ?? startedLoop()
        ownsLoop = loop == nil
        let box = ServerBox()
        let recorded = self.recorded
        server = try ControlSocketServer(
            path: path, loop: self.loop, limits: limits, roles: roles, log: logs.log,
            onConnect: { peer in recorded.state.withLock { $0.peers.append(peer) } },
            onInput: { peer, input in
                if recordInputs { recorded.state.withLock { $0.inputs.append((peer, input)) } }
                switch input {
                case .line(let text): box.server?.send(text, to: peer.id)
                case .lineTooLong(let limit): box.server?.send("too long \(limit)", to: peer.id)
                }
            })
        box.server = server
        server.start()
    }

    var peers: [ControlPeer] { recorded.state.withLock { $0.peers } }
    var inputs: [(ControlPeer, ControlSocketInput)] { recorded.state.withLock { $0.inputs } }

    func stop() {
        server.stop()
        if ownsLoop { loop.stop() }
        try? FileManager.default.removeItem(atPath: folder)
    }

    static func makeFolder() throws -> String {
        var template = Array("/tmp/marquee-control-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ControlSocketError("mkdtemp: \(String(cString: strerror(errno)))") }
        let folder = String(cString: made)
        chmod(folder, 0o755)
        return folder
    }
}

/// What the server's callbacks saw.
final class Recorded: Sendable {
    let state = Mutex<(peers: [ControlPeer], inputs: [(ControlPeer, ControlSocketInput)])>(([], []))
}

/// The server, for callbacks created before it exists; set once before `start()`, which orders the
/// write before the loop's reads (it adds the listener under the loop's lock).
final class ServerBox: @unchecked Sendable {
    var server: ControlSocketServer?
}

/// Waits until `condition` holds, at most `seconds`; whether it did.
func waitUntil(_ seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(2000)
    }
    return condition()
}

/// Binds a socket at `path` and closes it without unlinking: what a crashed player leaves.
func makeStaleSocket(at path: String) throws {
    let fd = UnixSocket.stream(nonBlocking: false)
    defer { close(fd) }
    let bound = UnixSocket.withAddress(path) { bind(fd, $0, $1) } ?? -1
    guard bound == 0 else { throw ControlSocketError("bind \(path): \(String(cString: strerror(errno)))") }
}

/// Entries in /proc/self/fd: the process's open descriptors (plus the one listing them).
/// Unix sockets bound to `path` that are open anywhere: the server's listener and each connection
/// it accepted (the kernel lists an accepted socket under its listener's path in /proc/net/unix).
/// Unlike a count of the process's descriptors, other tests running meanwhile do not change it.
/// The kernel writes /proc/net/unix a page per read, walking a list other suites' sockets join and
/// leave meanwhile, so one reading can skip a line (seen once: the listener missing, 0 for 1): the
/// count is taken once two readings in a row agree.
func socketsBound(to path: String) -> Int {
    func reading() -> Int {
        guard let table = try? String(contentsOfFile: "/proc/net/unix", encoding: .utf8) else { return -1 }
        return table.split(separator: "\n").filter { $0.hasSuffix(" " + path) }.count
    }
    var last = reading()
    for _ in 0..<10 {
        let next = reading()
        if next == last { return next }
        last = next
    }
    return last
}

/// What each descriptor open in this process names (`socket:[1234]`, `anon_inode:[timerfd]`, a
/// path), by number.
func openDescriptorTargets() -> [Int32: String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    var targets: [Int32: String] = [:]
    for name in names {
        guard let number = Int32(name),
              let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name) else { continue }
        targets[number] = target
    }
    return targets
}

/// The sockets among `descriptors`, by what they name: a socket's inode is its own for as long as
/// any descriptor holds it, so unlike a descriptor's number it is never reused by another suite's
/// socket while the test looks.
func socketIdentities(of descriptors: [Int32]) -> Set<String> {
    let targets = openDescriptorTargets()
    return Set(descriptors.compactMap { targets[$0] }.filter { $0.hasPrefix("socket:[") })
}

/// Which of `sockets` any descriptor of this process still holds.
func socketsStillOpen(_ sockets: Set<String>) -> Set<String> {
    sockets.intersection(openDescriptorTargets().values)
}

extension ControlPlaneLoop {
    /// The descriptors the sources still on this loop watch (whether the loop or their owner closes
    /// them when they end).
    var watchedDescriptors: [Int32] {
        state.withLock { $0.sources.values.map(\.descriptor) }
    }
}
