import CLinux
import Glibc

extension ControlPlaneLoop {
    /// A timer on the monotonic clock (a wall clock set by NTP or `date -s` moves none of them):
    /// `handler` runs on the loop's thread when it expires, once however many expirations were
    /// missed. Disarmed until `rearm`, unless `every` is given (then it repeats at that interval).
    @discardableResult
    public func timer(named name: String, every interval: Duration? = nil,
                      handler: @escaping () -> Void) -> EventSourceID? {
        let descriptor = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        guard descriptor >= 0 else {
            reportLine("events: cannot make the timer \(name) (\(SystemError(code: errno, operation: "timerfd_create")))")
            return nil
        }
        let id = watch(descriptor, named: name, owning: true) { _ in
            var expirations: UInt64 = 0
            guard read(descriptor, &expirations, MemoryLayout<UInt64>.size) == MemoryLayout<UInt64>.size else { return .keep }
            handler()
            return .keep
        }
        if let interval { Self.arm(descriptor, after: interval, every: interval) }
        timerDescriptors.withLock { $0[id.raw] = descriptor }
        return id
    }

    /// Arms a timer to expire `after` from now (and then `every`, when given); nil disarms it. On
    /// the loop's thread (a handler, `perform`), where the timer cannot end meanwhile.
    public func rearm(_ id: EventSourceID, after delay: Duration?, every interval: Duration? = nil) {
        guard let descriptor = timerDescriptors.withLock({ $0[id.raw] }),
              state.withLock({ $0.sources[id.raw] != nil }) else { return }
        Self.arm(descriptor, after: delay, every: interval)
    }

    static func arm(_ descriptor: Int32, after delay: Duration?, every interval: Duration?) {
        var spec = itimerspec()
        if let delay {
            // Zero would disarm: a deadline already passed expires at once instead.
            spec.it_value = Self.timespec(max(delay, .nanoseconds(1)))
            if let interval { spec.it_interval = Self.timespec(max(interval, .nanoseconds(1))) }
        }
        _ = timerfd_settime(descriptor, 0, &spec, nil)
    }

    private static func timespec(_ duration: Duration) -> Glibc.timespec {
        let (seconds, attoseconds) = duration.components
        return Glibc.timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    }
}
