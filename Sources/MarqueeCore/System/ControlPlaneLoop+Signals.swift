import CLinux
import Glibc

extension ControlPlaneLoop {
    /// Blocks `signals` for the calling thread and every thread it starts afterwards, so they
    /// queue for a loop's signalfd instead of running a handler or their default action on
    /// whichever thread the kernel picks. A process that takes signals through a loop calls this
    /// first thing in main, before any thread exists (threads inherit the mask at creation).
    public static func blockForProcess(_ signals: [Int32]) {
        block(signals)
    }

    /// Takes `signals` as events: `handler` runs on the loop's thread with each signal's number, in
    /// the order they arrived (one call per signal, however many of one kind were pending at
    /// once). A signal already pending when this is called (sent before, while blocked) is taken
    /// too. The signals must be blocked in every thread (`blockForProcess`): the loop blocks them on
    /// its own thread, and a thread that does not block one may take it instead.
    @discardableResult
    public func onSignals(_ signals: [Int32], named name: String,
                          handler: @escaping (Int32) -> Void) -> EventSourceID? {
        let descriptor = signals.withUnsafeBufferPointer { marquee_signalfd_create($0.baseAddress, Int32($0.count)) }
        guard descriptor >= 0 else {
            report(SystemError(code: errno, operation: "signalfd", path: name))
            return nil
        }
        state.withLock { $0.signalsToBlock.append(contentsOf: signals) }
        if isOnLoopThread { Self.block(signals) } else { wakeUp() }
        return watch(descriptor, named: name, owning: true) { _ in
            while true {
                let number = marquee_signalfd_next(descriptor)
                if number <= 0 { return number < 0 && errno != EINTR ? .end : .keep }
                handler(number)
            }
        }
    }

    private func report(_ error: SystemError) {
        reportLine("events: cannot take signals (\(error))")
    }
}
