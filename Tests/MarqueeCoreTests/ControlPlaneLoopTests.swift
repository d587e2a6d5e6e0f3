import Foundation
import Glibc
import MarqueeCore
import Synchronization
import Testing

/// The control-plane loop over real descriptors: pipes, socket pairs, timerfd and signalfd.
@Suite struct ControlPlaneLoopTests {
    /// Something handlers append to from the loop's thread, waited on from the test's.
    final class Record: @unchecked Sendable {
        private let condition = MonotonicCondition()
        private var lines: [String] = []

        func add(_ line: String) {
            condition.withLock {
                lines.append(line)
                condition.broadcast()
            }
        }

        var all: [String] { condition.withLock { lines } }

        /// Waits up to `seconds` for `count` lines.
        @discardableResult
        func wait(for count: Int, seconds: Double = 5) -> [String] {
            let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            return condition.withLock {
                while lines.count < count, condition.wait(until: deadline) {}
                return lines
            }
        }
    }

    private func pipePair() -> (reader: Int32, writer: Int32) {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        return (fds[0], fds[1])
    }

    private func send(_ text: String, to descriptor: Int32) {
        _ = text.withCString { write(descriptor, $0, strlen($0)) }
    }

    @Test func aReadableDescriptorRunsItsHandlerOnTheLoopsThread() throws {
        let loop = try ControlPlaneLoop(name: "test.events")
        let record = Record()
        let (reader, writer) = pipePair()
        loop.watch(reader, named: "pipe", owning: true) { readiness in
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(reader, &buffer, buffer.count)
            guard count > 0 else { return .end }
            record.add("\(String(decoding: buffer[..<count], as: UTF8.self)) on loop: \(loop.isOnLoopThread) readable: \(readiness.contains(.readable))")
            return .keep
        }
        loop.start()
        send("one", to: writer)
        record.wait(for: 1)
        send("two", to: writer)
        #expect(record.wait(for: 2) == ["one on loop: true readable: true", "two on loop: true readable: true"])
        close(writer)
        loop.stop()
    }

    @Test func aHandlerThatEndsItsSourceIsToldWhyAndItsDescriptorIsClosed() throws {
        let loop = try ControlPlaneLoop()
        let record = Record()
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        let owned = pair[0]
        loop.watch(owned, named: "pair", owning: true, ended: { record.add("ended \($0)") }) { _ in
            var byte: UInt8 = 0
            _ = read(owned, &byte, 1)
            return .end
        }
        loop.start()
        send("x", to: pair[1])
        #expect(record.wait(for: 1) == ["ended byHandler"])
        // Owned: closed by the loop once ended, so the other end reads end of file (asked through
        // the peer: in a parallel test run the number may already be another test's descriptor).
        var entry = pollfd(fd: pair[1], events: Int16(POLLIN), revents: 0)
        #expect(poll(&entry, 1, 2000) == 1)
        var byte: UInt8 = 0
        #expect(recv(pair[1], &byte, 1, Int32(MSG_DONTWAIT)) == 0)
        close(pair[1])
        loop.stop()
    }

    @Test func aSourceThatHangsUpAndKeepsAskingIsEndedRatherThanSpun() throws {
        let loop = try ControlPlaneLoop()
        let record = Record()
        let calls = Mutex(0)
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        // A handler that never reads and never ends: the peer's hang-up alone must stop it.
        loop.watch(pair[0], named: "careless", owning: true, ended: { record.add("ended \($0)") }) { _ in
            calls.withLock { $0 += 1 }
            return .keep
        }
        // Sent and hung up before the loop runs: a loop thread woken between the two (a loaded
        // machine preempting this one) saw only "readable" from a handler that never reads, and
        // was called 694 times before the hang-up came; that is the careless handler, not the loop.
        send("unread", to: pair[1])
        close(pair[1])
        loop.start()
        #expect(record.wait(for: 1) == ["ended hungUp"])
        #expect(calls.withLock { $0 } <= 64)
        loop.stop()
    }

    @Test func removeFromAnotherThreadWaitsUntilTheHandlerWillNotRunAgain() throws {
        let loop = try ControlPlaneLoop()
        let record = Record()
        let (reader, writer) = pipePair()
        let id = loop.watch(reader, named: "pipe", ended: { record.add("ended \($0)") }) { _ in
            var byte: UInt8 = 0
            _ = read(reader, &byte, 1)
            record.add("read")
            return .keep
        }
        loop.start()
        send("x", to: writer)
        record.wait(for: 1)
        loop.remove(id, waiting: true)
        #expect(record.all == ["read", "ended removed"])
        send("y", to: writer)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(record.all == ["read", "ended removed"])
        // Not owned: still open for its owner.
        #expect(fcntl(reader, F_GETFD) != -1)
        close(reader)
        close(writer)
        loop.stop()
    }

    @Test func stopEndsEverySourceLeftAndPerformRunsInOrder() throws {
        let loop = try ControlPlaneLoop()
        let record = Record()
        let first = pipePair()
        let second = pipePair()
        loop.watch(first.reader, named: "a", owning: true, ended: { record.add("a \($0)") }) { _ in .keep }
        loop.watch(second.reader, named: "b", owning: true, ended: { record.add("b \($0)") }) { _ in .keep }
        loop.start()
        loop.perform { record.add("first: \(loop.isOnLoopThread)") }
        loop.perform { record.add("second") }
        record.wait(for: 2)
        loop.stop()
        #expect(record.all == ["first: true", "second", "a loopStopped", "b loopStopped"])
        loop.stop()
        close(first.writer)
        close(second.writer)
    }

    @Test func aRepeatingTimerFiresAndARearmedOneFiresOnce() throws {
        let loop = try ControlPlaneLoop()
        let record = Record()
        let ticks = Mutex(0)
        loop.timer(named: "tick", every: .milliseconds(20)) {
            ticks.withLock { $0 += 1 }
        }
        let once = try #require(loop.timer(named: "once") { record.add("once") })
        loop.start()
        loop.perform { loop.rearm(once, after: .milliseconds(50)) }
        #expect(record.wait(for: 1) == ["once"])
        Thread.sleep(forTimeInterval: 0.2)
        #expect(record.all == ["once"])
        #expect(ticks.withLock { $0 } >= 5)
        loop.stop()
    }

    @Test func signalsArriveAsEventsOnTheLoopsThread() throws {
        let loop = try ControlPlaneLoop()
        let record = Record()
        loop.onSignals([SIGUSR2], named: "signals") { number in
            record.add("signal \(number) on loop: \(loop.isOnLoopThread)")
        }
        loop.start()
        // Raised on the loop's own thread, where the loop has blocked it: the test runner's other
        // threads do not block SIGUSR2, so a process-wide kill could end the test process.
        loop.perform { raise(SIGUSR2) }
        #expect(record.wait(for: 1) == ["signal \(SIGUSR2) on loop: true"])
        loop.stop()
    }

    @Test func aLoopWhoseWaitFailsEndsItsSourcesAndSaysSo() throws {
        let lines = Record()
        let loop = try ControlPlaneLoop(name: "test.failing", report: { lines.add($0) })
        let record = Record()
        let (reader, writer) = pipePair()
        loop.watch(reader, named: "pipe", owning: true, ended: { record.add("ended \($0)") }) { _ in .keep }
        try SystemCall.$faults.withValue(SystemCallFaults(["epoll_wait": [EINTR, EINTR, EBADF]])) {
            loop.start()
        }
        #expect(record.wait(for: 1) == ["ended failed(epoll_wait test.failing: Bad file descriptor (errno 9))"])
        #expect(lines.wait(for: 1).first?.contains("the control-plane loop failed") == true)
        loop.stop()
        close(writer)
    }
}
