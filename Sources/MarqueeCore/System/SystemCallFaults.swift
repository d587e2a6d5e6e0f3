import Synchronization

/// The errnos tests force on named system calls (see `SystemCall.faults`): each call of that
/// operation takes the next one instead of reaching the kernel, until its list runs out.
/// A forced EINTR is retried like a real one, so `["read": [EINTR, EINTR]]` proves the retry.
public final class SystemCallFaults: Sendable {
    private let pending: Mutex<[String: [Int32]]>

    public init(_ errnos: [String: [Int32]]) {
        pending = Mutex(errnos)
    }

    /// The next forced errno for `operation`, removing it; nil once none is left.
    func take(_ operation: String) -> Int32? {
        pending.withLock { errnos in
            guard var queue = errnos[operation], !queue.isEmpty else { return nil }
            let code = queue.removeFirst()
            errnos[operation] = queue
            return code
        }
    }

    /// The forced errnos not used yet, to check a test reached the call it meant to.
    public var remaining: [String: [Int32]] {
        pending.withLock { $0.filter { !$0.value.isEmpty } }
    }
}
