import Glibc

/// A lock with a condition whose timed waits run on CLOCK_MONOTONIC. Foundation's `NSCondition`
/// waits until an absolute CLOCK_REALTIME instant (`wait(until: Date)`), so a wall clock set back
/// by NTP or `date -s` stretched every such wait by the size of the step: a poll interval, a
/// back-off, a heartbeat while paused (systemd's watchdog then kills a healthy player). Here every
/// deadline is a `ContinuousClock` instant or a number of seconds from now, and the kernel waits
/// on the monotonic clock, which no one can set.
public final class MonotonicCondition: @unchecked Sendable {
    /// The clock deadlines are read on: one nobody can set.
    private static let clock = CLOCK_MONOTONIC
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, Self.clock)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }

    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits until signalled (the lock held).
    public func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Waits until signalled or `deadline` (the lock held); false once the deadline has passed.
    @discardableResult
    public func wait(until deadline: ContinuousClock.Instant) -> Bool {
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else { return false }
        var now = timespec()
        clock_gettime(Self.clock, &now)
        let (seconds, attoseconds) = remaining.components
        var target = timespec(tv_sec: now.tv_sec + Int(clamping: seconds), tv_nsec: now.tv_nsec + Int(attoseconds / 1_000_000_000))
        if target.tv_nsec >= 1_000_000_000 {
            target.tv_sec += 1
            target.tv_nsec -= 1_000_000_000
        }
        return pthread_cond_timedwait(condition, mutex, &target) != ETIMEDOUT
    }

    /// Waits until signalled or `seconds` from now (the lock held); false once they have passed.
    @discardableResult
    public func wait(seconds: Double) -> Bool {
        wait(until: ContinuousClock.now + .seconds(max(0, min(seconds, 1e9))))
    }

    /// `wait(until:)`, or a plain wait without a deadline.
    @discardableResult
    public func wait(orUntil deadline: ContinuousClock.Instant?) -> Bool {
        guard let deadline else {
            wait()
            return true
        }
        return wait(until: deadline)
    }

    public func signal() { pthread_cond_signal(condition) }
    public func broadcast() { pthread_cond_broadcast(condition) }
}
