import Foundation
import Glibc
import MarqueeCore
import Synchronization
import Testing

/// `SystemCall.retrying`: EINTR is asked again, any other errno becomes a `SystemError` naming the
/// call and its path; `SystemCall.$faults` forces either without the kernel.
@Suite struct SystemCallTests {
    @Test func forcedInterruptionsAreRetriedUntilTheCallRuns() throws {
        let faults = SystemCallFaults(["read": [EINTR, EINTR]])
        var runs = 0
        let result = try SystemCall.$faults.withValue(faults) {
            try SystemCall.retrying("read", path: "/x") { () -> Int in
                runs += 1
                return 7
            }
        }
        #expect(result == 7)
        #expect(runs == 1)
        #expect(faults.remaining.isEmpty)
    }

    @Test func aForcedErrnoSurfacesNamingTheCallAndPath() {
        let faults = SystemCallFaults(["open": [EACCES]])
        var runs = 0
        #expect(throws: SystemError(code: EACCES, operation: "open", path: "/dev/cec0")) {
            try SystemCall.$faults.withValue(faults) {
                try SystemCall.retrying("open", path: "/dev/cec0") { () -> Int32 in
                    runs += 1
                    return 3
                }
            }
        }
        #expect(runs == 0)
    }

    @Test func faultsOnOtherCallsAreLeftAlone() throws {
        let faults = SystemCallFaults(["write": [EIO]])
        let result = try SystemCall.$faults.withValue(faults) {
            try SystemCall.retrying("read") { () -> Int32 in 0 }
        }
        #expect(result == 0)
        #expect(faults.remaining == ["write": [EIO]])
    }

    @Test func aRealErrnoIsReported() {
        #expect(throws: SystemError(code: EBADF, operation: "close", path: nil)) {
            try SystemCall.retrying("close") { close(-1) }
        }
    }

    /// A real `read` on an empty pipe, interrupted by a signal whose handler does not ask for
    /// SA_RESTART: the kernel fails it with EINTR, the helper reads again, and the byte written
    /// afterwards is what it returns.
    @Test func aReadInterruptedByASignalIsReadAgain() throws {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        action.sa_flags = 0
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        #expect(sigaction(SIGUSR2, &action, &previous) == 0)
        defer { sigaction(SIGUSR2, &previous, nil) }

        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let reader = fds[0]
        let state = Mutex<(thread: pthread_t?, runs: Int, result: Result<Int, SystemError>?)>((nil, 0, nil))
        let thread = Thread {
            // The test runner's threads may block signals; this one must take SIGUSR2.
            var unblocked = sigset_t()
            sigemptyset(&unblocked)
            sigaddset(&unblocked, SIGUSR2)
            pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
            state.withLock { $0.thread = pthread_self() }
            var byte: UInt8 = 0
            let result = Result { () throws(SystemError) -> Int in
                try SystemCall.retrying("read") { () -> Int in
                    state.withLock { $0.runs += 1 }
                    return read(reader, &byte, 1)
                }
            }
            state.withLock { $0.result = result }
        }
        thread.start()

        let deadline = ContinuousClock.now + .seconds(10)
        while state.withLock({ $0.runs }) < 2 && ContinuousClock.now < deadline {
            if let target = state.withLock({ $0.thread }) { pthread_kill(target, SIGUSR2) }
            usleep(20_000)
        }
        var one: UInt8 = 1
        #expect(write(fds[1], &one, 1) == 1)
        while state.withLock({ $0.result }) == nil && ContinuousClock.now < deadline { usleep(1_000) }

        #expect(state.withLock { $0.runs } >= 2, "the read was never interrupted and called again")
        #expect(try state.withLock { $0.result }?.get() == 1)
    }
}
